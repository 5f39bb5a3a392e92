// SPDX-License-Identifier: Apache-2.0
// The page used as a reader would, in Debian's chromium driven by puppeteer-core
// (tests/report/page_browser.sh fetches it and makes the pages).  Every number
// checked comes from the database through sqlite3 (passed in as JSON by the shell
// script), not from the page's own data.  Any console message, page error or CSP
// violation fails the test.
//   node page_browser.js CHROMIUM FACTS.json [SCREENSHOT.png]
'use strict';
const puppeteer = require('puppeteer-core');
const fs = require('fs');

const [chromium, factsFile, shot] = process.argv.slice(2);
const facts = JSON.parse(fs.readFileSync(factsFile, 'utf8'));
let failed = 0;
function check(name, ok, detail) {
  if (ok) console.log('ok ' + name);
  else { failed = 1; console.log('FAIL ' + name + (detail !== undefined ? ': ' + JSON.stringify(detail) : '')); }
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function open(browser, file, messages) {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 1000 });
  page.on('console', (m) => messages.push(m.type() + ': ' + m.text()));
  page.on('pageerror', (e) => messages.push('pageerror: ' + e.message));
  const t0 = Date.now();
  await page.goto('file://' + file, { waitUntil: 'load', timeout: 60000 });
  await page.waitForSelector('body[data-ready="1"]', { timeout: 60000 });
  return { page, ms: Date.now() - t0 };
}

// the cells' text of the drawn rows of table ID, column J
const column = (page, id, j) => page.$$eval('#' + id + ' tbody tr', (trs, j) => trs.map((tr) => tr.cells[j] ? tr.cells[j].textContent.trim() : null), j);
const headIndex = (page, id, text) => page.$$eval('#' + id + ' thead th', (ths, text) => ths.findIndex((th) => th.textContent.trim().toLowerCase() === text), text);
const toolbar = (id) => '#' + id; // the toolbar is the element before the table's scroll box
async function typeSearch(page, id, text) {
  const box = await page.evaluateHandle((id) => {
    const t = document.getElementById(id), host = t.parentNode.classList.contains('scroll') ? t.parentNode : t;
    return host.previousElementSibling.querySelector('input');
  }, id);
  await box.click({ clickCount: 3 });
  await page.keyboard.press('Backspace');
  if (text) await box.type(text);
  await sleep(400); // the filter runs 120 ms after the last key
}
async function clickPager(page, id, which) {
  await page.evaluate((id, which) => {
    const t = document.getElementById(id), host = t.parentNode.classList.contains('scroll') ? t.parentNode : t;
    host.previousElementSibling.querySelectorAll('button')[which === 'next' ? 1 : 0].click();
  }, id, which);
}
const status = (page, id) => page.evaluate((id) => {
  const t = document.getElementById(id), host = t.parentNode.classList.contains('scroll') ? t.parentNode : t;
  return host.previousElementSibling.querySelector('.pgstat').textContent;
}, id);

(async () => {
  const browser = await puppeteer.launch({
    executablePath: chromium, headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update'],
  });
  try {
    // ---- the console check sees a CSP violation (on a page made to have one)
    const refused = [];
    const r = await open(browser, facts.selftest, refused);
    await sleep(200);
    check('selftest_csp_logged', refused.some((x) => /Content Security Policy/.test(x)), refused);
    check('selftest_script_refused', (await r.page.title()) !== 'ran');
    await r.page.close();

    // ---- the big page: 20,000 functions
    const big = [];
    const b = await open(browser, facts.big.page, big);
    console.log('big page ready in ' + b.ms + ' ms (script ' + await b.page.$eval('body', (x) => x.getAttribute('data-ready-ms')) + ' ms)');
    check('big_ready_under_3s', b.ms < 3000, b.ms);
    const p = b.page;
    check('big_first_page_10_rows', (await column(p, 'hot-symbol', 1)).length === 10);
    check('big_status', (await status(p, 'hot-symbol')) === 'rows 1\u201310 of ' + facts.big.functions_text, await status(p, 'hot-symbol'));
    const more = await p.$eval('p.more[data-table="hot-symbol"]', (x) => x.textContent);
    check('big_more_line', more.startsWith(facts.big.more_text), [more, facts.big.more_text]);
    // sort by samples, ascending (numbers sort descending first, then ascending)
    const js = await headIndex(p, 'hot-symbol', 'samples');
    const th = (await p.$$('#hot-symbol thead th'))[js];
    await th.click();
    await th.click();
    const asc = (await column(p, 'hot-symbol', js)).map(Number);
    check('sort_samples_ascending', asc[0] === facts.big.min_samples && asc.every((v, i) => i === 0 || asc[i - 1] <= v), asc);
    await th.click();
    const desc = (await column(p, 'hot-symbol', js)).map(Number);
    check('sort_samples_descending', desc[0] === facts.big.max_samples && desc.every((v, i) => i === 0 || desc[i - 1] >= v), desc);
    // back to the page's order: sort by rank
    const rank = (await p.$$('#hot-symbol thead th'))[0];
    await rank.click();
    await rank.click();
    check('sort_rank_back', (await column(p, 'hot-symbol', 0))[0] === '1', await column(p, 'hot-symbol', 0));
    // search for a function far outside the first page
    await typeSearch(p, 'hot-symbol', facts.big.far.symbol);
    const names = await column(p, 'hot-symbol', 1);
    const jt = await headIndex(p, 'hot-symbol', 'total latency');
    check('search_far_function', names.length === 1 && names[0] === facts.big.far.symbol, names);
    check('search_far_total', Number((await column(p, 'hot-symbol', jt))[0]) === facts.big.far.total_latency);
    check('search_far_rank', (await column(p, 'hot-symbol', 0))[0] === String(facts.big.far.rank));
    await typeSearch(p, 'hot-symbol', '');
    // page through: the second page holds ranks 11-20, the eleventh function is the database's
    await clickPager(p, 'hot-symbol', 'next');
    check('page_2_ranks', (await column(p, 'hot-symbol', 0)).join(',') === '11,12,13,14,15,16,17,18,19,20');
    check('page_2_first', (await column(p, 'hot-symbol', 1))[0] === facts.big.eleventh, [(await column(p, 'hot-symbol', 1))[0], facts.big.eleventh]);
    check('page_2_status', (await status(p, 'hot-symbol')).startsWith('rows 11\u201320 of'));
    const more2 = await p.$eval('p.more[data-table="hot-symbol"]', (x) => x.textContent);
    check('page_2_more', more2.startsWith(facts.big.functions_less_10_text + ' more functions'), more2);
    await clickPager(p, 'hot-symbol', 'prev');
    check('page_1_again', (await column(p, 'hot-symbol', 0))[0] === '1');
    // instructions: the page holds the first 10,000 and says the rest are not in it
    const pcMore = await p.$eval('p.more[data-table="hot-pc"]', (x) => x.textContent);
    check('pc_more_absent', pcMore.includes(facts.big.pcs_absent_text + ' of them'), pcMore);
    // any function to its annotation, drawn on demand: the seventh (outside the five the page draws), against hot_pc's
    // rows the page holds; one far down has none of them, and says so
    check('big_size_under_3MiB', facts.big.size <= 3 * 1024 * 1024, facts.big.size);
    const annOf = (name) => p.evaluate((name) => {
      const tr = Array.from(document.querySelectorAll('#hot-symbol tbody tr[data-i]')).find((r) => r.cells[1].textContent === name);
      if (!tr) return null;
      tr.cells[1].click();
      const od = tr.nextElementSibling && tr.nextElementSibling.querySelector('.ann-od');
      if (!od) return null;
      const rows = Array.from(od.querySelectorAll('table.ann-asm tbody tr'));
      return { title: od.querySelector('h4').textContent, said: od.querySelector('p').textContent, n: rows.length,
        latency: rows.reduce((t, r) => t + Number(r.cells[3].textContent), 0),
        samples: rows.reduce((t, r) => t + Number(r.cells[2].textContent), 0),
        drawnBefore: Array.from(document.querySelectorAll('div.ann h3 code')).some((c) => c.textContent === name) };
    }, name);
    const wantAnn = facts.big.ann;
    await typeSearch(p, 'hot-symbol', wantAnn.symbol);
    const ann = await annOf(wantAnn.symbol);
    check('ann_on_demand', ann !== null && ann.title === 'Annotation of ' + wantAnn.symbol, ann);
    check('ann_not_among_the_drawn', ann !== null && !ann.drawnBefore);
    check('ann_instructions', ann !== null && wantAnn.instructions > 0 && ann.n === wantAnn.instructions, [ann, wantAnn]);
    check('ann_latency', ann !== null && ann.latency === wantAnn.latency, [ann, wantAnn]);
    check('ann_samples', ann !== null && ann.samples === wantAnn.samples, [ann, wantAnn]);
    check('ann_rest_said', ann !== null && (wantAnn.all_samples > wantAnn.samples
      ? ann.said.includes((wantAnn.all_samples - wantAnn.samples).toLocaleString('en-US') + ' more samples')
      : ann.said.includes('they hold all its samples')), ann && ann.said);
    if (wantAnn.perf) { // perf script's samples of that function: every PC, when the page says it holds them all
      check('ann_against_perf', ann !== null && ann.said.includes('they hold all its samples') && ann.n === wantAnn.perf.instructions &&
        ann.samples === wantAnn.perf.samples && ann.latency === wantAnn.perf.latency, [ann, wantAnn.perf]);
    }
    await typeSearch(p, 'hot-symbol', facts.big.far.symbol);
    const far = await annOf(facts.big.far.symbol);
    check('ann_far', far !== null && (facts.big.far_held === 0 ? far.n === 0 &&
      far.said.startsWith('None of its instructions is among the 10,000') : far.n === facts.big.far_held), [far, facts.big.far_held]);
    await typeSearch(p, 'hot-symbol', '');
    check('big_console_quiet', big.length === 0, big);

    // ---- the memwork page: the flame graph, annotations, the console
    const small = [];
    const m = await open(browser, facts.small.page, small);
    const q = m.page;
    await sleep(800); // the flame graph's first transition
    const width = await q.$eval('#fg-chart svg', (s) => Number(s.getAttribute('width')));
    const barWidth = (name) => q.$$eval('#fg-chart g.frame', (gs, name) => {
      const g = gs.find((x) => x.getAttribute('name') === name);
      return g ? Number(g.querySelector('rect').getAttribute('width')) : -1;
    }, name);
    const before = await barWidth(facts.small.second_function);
    check('flame_bar_share', Math.abs(before / width - facts.small.second_share) < 0.01, [before, width, facts.small.second_share]);
    // zoom: click the second function's bar; it fills the width
    await q.evaluate((name) => {
      const g = Array.from(document.querySelectorAll('#fg-chart g.frame')).find((x) => x.getAttribute('name') === name);
      g.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    }, facts.small.second_function);
    await sleep(900);
    check('flame_zoomed', Math.abs((await barWidth(facts.small.second_function)) - width) < 1, [await barWidth(facts.small.second_function), width]);
    check('flame_zoom_said', (await q.$eval('#fg-chart', (c) => c.getAttribute('data-zoom'))) === facts.small.second_function);
    await q.click('#fg-reset');
    await sleep(900);
    check('flame_zoom_out', Math.abs((await barWidth(facts.small.second_function)) - before) < 1);
    // search: DRAM bars highlighted, their share of the latency said
    await q.type('#fg-search', 'DRAM');
    await sleep(700);
    const said = await q.$eval('#fg-details', (d) => d.textContent);
    check('flame_search_share', said.includes(facts.small.dram_share_text + ' % of the latency'), [said, facts.small.dram_share_text]);
    const lit = await q.$$eval('#fg-chart rect', (rs) => rs.filter((r) => r.getAttribute('fill') === '#ffd54f').length);
    check('flame_search_highlight', lit >= 1, lit);
    // the view by data object
    await q.select('#fg-view', 'fg-data');
    await sleep(700);
    const dataBars = await q.$$eval('#fg-chart g.frame', (gs) => gs.map((g) => g.getAttribute('name')));
    check('flame_by_data_object', dataBars.includes(facts.small.data_object), dataBars.slice(0, 8));
    // a function to its annotation
    await q.click('#hot-symbol a[href="#ann-1"]');
    await sleep(300);
    check('annotation_followed', (await q.evaluate(() => location.hash)) === '#ann-1');
    const annTitle = await q.$eval('#ann-1', (x) => x.textContent);
    check('annotation_is_the_function', annTitle.includes(facts.small.first_function), annTitle);
    const inView = await q.$eval('#ann-1', (x) => { const r = x.getBoundingClientRect(); return r.top >= -1 && r.top < window.innerHeight; });
    check('annotation_in_view', inView);
    // a small table sorted in place: memory levels by loads, ascending after two clicks
    const lvl = await q.$$('#latency table thead th');
    if (lvl.length) {
      const jl = await q.$$eval('#latency table thead th', (ths) => ths.findIndex((t) => t.textContent.trim().toLowerCase() === 'loads'));
      const hd = lvl[jl];
      await hd.click();
      await hd.click();
      const loads = await q.$$eval('#latency table tbody tr', (trs, j) => trs.map((tr) => Number(tr.cells[j].textContent.replace(/,/g, ''))), jl);
      check('small_table_sorted', loads.length > 1 && loads.every((v, i) => i === 0 || loads[i - 1] <= v), loads);
    }
    // a data object to the functions that touch it, a function to its data objects: the lists against spe_sample
    // (the row of table ID whose second cell is NAME; null when no list opened under it, [] when it says it has none)
    const drillList = (id, name) => q.evaluate((id, name) => {
      const tr = Array.from(document.querySelectorAll('#' + id + ' tbody tr[data-i]')).find((r) => r.cells[1].textContent === name);
      if (!tr) return null;
      tr.cells[1].click();
      const box = tr.nextElementSibling;
      if (!box || !box.classList.contains('drill')) return null;
      if (!box.querySelector('table.drill-list')) return box.textContent.includes('no known data object') ? [] : null;
      return Array.from(box.querySelectorAll('table.drill-list tbody tr')).map((r) => ({
        name: r.cells[0].textContent, samples: Number(r.cells[2].textContent),
        latency: r.cells[3].textContent === '\u2013' ? null : Number(r.cells[3].textContent) }));
    }, id, name);
    // the database's rows as the page ranks them (latency, then samples), its first ten; the page's must be those
    const ranked = (want) => want.slice().sort((a, b) => (b.latency === null ? -1 : b.latency) - (a.latency === null ? -1 : a.latency) ||
      b.samples - a.samples).slice(0, 10);
    const same = (got, want) => got !== null && got.length === want.length && got.every((g, k) =>
      g.latency === want[k].latency && g.samples === want[k].samples && (g.name === want[k].name ||
        (want[k - 1] && want[k - 1].latency === g.latency) || (want[k + 1] && want[k + 1].latency === g.latency)));
    check('drill_object_is_first', (await q.$eval('#data-objects tbody tr[data-i="0"]', (tr) => tr.cells[1].textContent)) === facts.small.top_object);
    const objFns = await drillList('data-objects', facts.small.top_object);
    const wantFns = ranked(facts.small.top_object_functions);
    check('drill_object_functions', wantFns.length > 0 && same(objFns, wantFns), [objFns, wantFns]);
    check('drill_object_functions_names', objFns && objFns.every((g) => facts.small.top_object_functions.some((w) => w.name === g.name && w.latency === g.latency)), objFns);
    await q.evaluate(() => document.querySelector('#data-objects tbody tr[data-i="0"]').cells[1].click());
    check('drill_object_closed', await q.evaluate(() => !document.querySelector('#data-objects tr.drill')));
    const fnObjs = await drillList('hot-symbol', facts.small.drill_function);
    const wantObjs = ranked(facts.small.drill_function_objects);
    check('drill_function_objects', wantObjs.length > 0 && same(fnObjs, wantObjs), [fnObjs, wantObjs]);
    const firstObjs = await drillList('hot-symbol', facts.small.first_function);
    check('drill_function_objects_first', same(firstObjs, ranked(facts.small.first_function_objects)),
      [firstObjs, facts.small.first_function_objects]);
    // an instruction to the pages, lines and addresses it touched: from the instructions table, from the function's
    // annotation drawn on demand and from the annotation the page draws, each against spe_sample
    const pcLists = (how, arg) => q.evaluate((how, arg) => {
      let tr = null;
      if (how === 'table') tr = document.querySelector('#hot-pc tbody tr[data-i="0"]');
      if (how === 'static') {
        const div = Array.from(document.querySelectorAll('div.ann')).find((d) => d.querySelector('h3 code').textContent === arg.fn);
        tr = div && div.querySelector('table.ann-asm tr[data-pc="' + arg.pc + '"]');
      }
      if (how === 'demand') {
        const fr = Array.from(document.querySelectorAll('#hot-symbol tbody tr[data-i]')).find((r) => r.cells[1].textContent === arg.fn);
        if (!fr) return null;
        if (!(fr.nextElementSibling && fr.nextElementSibling.classList.contains('drill'))) fr.cells[1].click();
        tr = fr.nextElementSibling.querySelector('.ann-od table.ann-asm tr[data-pc="' + arg.pc + '"]');
      }
      if (!tr) return null;
      tr.cells[0].click();
      const box = tr.nextElementSibling;
      if (!box || !box.classList.contains('pc-drill')) return null;
      const out = {};
      box.querySelectorAll('table.pc-list').forEach((t) => {
        out[t.getAttribute('data-kind')] = Array.from(t.tBodies[0].rows).map((r) => ({ name: r.cells[0].textContent,
          samples: Number(r.cells[1].textContent.replace(/,/g, '')), latency: Number(r.cells[2].textContent.replace(/,/g, '')) }));
      });
      tr.cells[0].click(); // and closed again
      return out;
    }, how, arg);
    // the page breaks ties by address (the query's ORDER BY ... addr), as this does
    const top5 = (want) => want.slice().sort((a, b) => b.latency - a.latency || b.samples - a.samples ||
      (BigInt(a.name) < BigInt(b.name) ? -1 : BigInt(a.name) > BigInt(b.name) ? 1 : 0)).slice(0, 5);
    for (const how of ['table', 'demand', 'static']) {
      const got = await pcLists(how, { fn: facts.small.pc_function, pc: facts.small.pc_first });
      check('pc_pages_' + how, got !== null && got.page !== undefined && facts.small.pc_pages.length > 0 && same(got.page, top5(facts.small.pc_pages)),
        [got && got.page, top5(facts.small.pc_pages)]);
      check('pc_lines_' + how, got !== null && got.line !== undefined && same(got.line, top5(facts.small.pc_lines)), [got && got.line, top5(facts.small.pc_lines)]);
      check('pc_addresses_' + how, got !== null && got.address !== undefined && same(got.address, top5(facts.small.pc_addresses)),
        [got && got.address, top5(facts.small.pc_addresses)]);
    }
    // an instruction's data objects (one of the first rows that touched some), ties broken by name
    const objects = facts.small.pc_objects.slice().sort((a, b) => b.latency - a.latency || b.samples - a.samples ||
      (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).slice(0, 5);
    const gotObjects = await q.evaluate((i) => {
      const tr = document.querySelector('#hot-pc tbody tr[data-i="' + i + '"]');
      if (!tr) return null;
      tr.cells[0].click();
      const t = tr.nextElementSibling && tr.nextElementSibling.querySelector('table.pc-list[data-kind="object"]');
      const rows = t ? Array.from(t.tBodies[0].rows).map((r) => ({ name: r.cells[0].textContent,
        samples: Number(r.cells[1].textContent.replace(/,/g, '')), latency: Number(r.cells[2].textContent.replace(/,/g, '')) })) : null;
      tr.cells[0].click();
      return rows;
    }, facts.small.pc_object_row);
    check('pc_objects', objects.length > 0 && same(gotObjects, objects), [gotObjects, objects]);
    // the same lists from perf script's samples of memwork.data (addresses masked to their page and line)
    const perfGroups = (records, key) => {
      const g = new Map();
      records.forEach((r) => {
        const k = key(r);
        if (k === null) return;
        const x = g.get(k) || { name: k, samples: 0, latency: 0 };
        x.samples++;
        x.latency += r[2];
        g.set(k, x);
      });
      return Array.from(g.values());
    };
    const masked = (mask) => (r) => r[3] === facts.small.pc_first ? '0x' + (BigInt(r[1]) & ~BigInt(mask)).toString(16) : null;
    if (facts.small.perf_records) {
      const got = await pcLists('table', {});
      check('pc_pages_perf', got !== null && got.page !== undefined && same(got.page, top5(perfGroups(facts.small.perf_records, masked(4095)))),
        [got && got.page, top5(perfGroups(facts.small.perf_records, masked(4095)))]);
      check('pc_lines_perf', got !== null && got.line !== undefined && same(got.line, top5(perfGroups(facts.small.perf_records, masked(63)))),
        [got && got.line, top5(perfGroups(facts.small.perf_records, masked(63)))]);
      check('pc_addresses_perf', got !== null && got.address !== undefined && same(got.address, top5(perfGroups(facts.small.perf_records, masked(0)))),
        [got && got.address, top5(perfGroups(facts.small.perf_records, masked(0)))]);
    }
    // a shared cache line to the functions and threads using it
    const lineUsers = await q.evaluate(() => {
      const tr = document.querySelector('#cacheline-sharing tbody tr[data-i="0"]');
      if (!tr) return null;
      tr.cells[0].click();
      const box = tr.nextElementSibling;
      if (!box || !box.classList.contains('drill')) return null;
      return Array.from(box.querySelectorAll('table.drill-list')).map((t) => Array.from(t.tBodies[0].rows).map((r) => ({
        name: r.cells[0].textContent, samples: Number(r.cells[2].textContent),
        latency: r.cells[3].textContent === '\u2013' ? null : Number(r.cells[3].textContent) })));
    });
    check('line_functions', lineUsers !== null && facts.small.line_functions.length > 0 &&
      same(lineUsers[0], ranked(facts.small.line_functions)), [lineUsers, facts.small.line_functions]);
    check('line_threads', lineUsers !== null && facts.small.line_threads.length > 0 &&
      same(lineUsers[1], ranked(facts.small.line_threads)), [lineUsers, facts.small.line_threads]);
    if (facts.small.perf_records) { // the line's samples in perf script (one process: the line alone picks them)
      const inLine = (r) => (BigInt(r[1]) >> 6n) === (BigInt(facts.small.line_address) >> 6n);
      const fns = perfGroups(facts.small.perf_records, (r) => inLine(r) ? r[4] : null);
      const tids = perfGroups(facts.small.perf_records, (r) => inLine(r) ? 'tid ' + r[0] : null);
      check('line_functions_perf', lineUsers !== null && fns.length > 0 && same(lineUsers[0], ranked(fns)), [lineUsers, fns]);
      check('line_threads_perf', lineUsers !== null && tids.length > 1 && same(lineUsers[1], ranked(tids)), [lineUsers, tids]);
    }
    check('small_console_quiet', small.length === 0, small);

    // ---- a page of a selection: its header says it, its functions are the selection's
    const sel = [];
    const sp = await open(browser, facts.selected.page, sel);
    const header = await sp.page.$eval('header p.selection', (p) => p.textContent);
    check('selected_header', header.startsWith('selection: ' + facts.selected.selection + ' '), header);
    const jsel = await headIndex(sp.page, 'hot-symbol', 'samples');
    const selNames = await column(sp.page, 'hot-symbol', 1), selCounts = await column(sp.page, 'hot-symbol', jsel);
    const drawn = selNames.map((n, k) => n + ' ' + selCounts[k]).sort();
    const wanted = facts.selected.functions.map((f) => f.name + ' ' + f.samples).sort();
    check('selected_functions', wanted.length > 1 && drawn.join(',') === wanted.join(','), [drawn, wanted]);
    check('selected_console_quiet', sel.length === 0, sel);
    await sp.page.close();
    // names and source lines that are markup, drawn by every drill-down: text, never elements
    const hostile = [];
    const hp = (await open(browser, facts.hostile, hostile)).page;
    const opened = await hp.evaluate(() => {
      let n = 0;
      const click = (sel) => document.querySelectorAll(sel).forEach((tr) => { tr.cells[0].click(); n++; });
      click('#hot-symbol tbody tr[data-i]');
      click('#hot-symbol .ann-od table.ann-asm tbody tr[data-k]');
      click('#hot-pc tbody tr[data-i]');
      click('div.ann table.ann-asm tbody tr[data-pc]');
      click('#data-objects tbody tr[data-i]');
      click('#cacheline-sharing tbody tr[data-i]');
      const text = Array.from(document.querySelectorAll('tr.drill')).map((b) => b.textContent).join('\n');
      return { n, boxes: document.querySelectorAll('tr.drill').length, imgs: document.querySelectorAll('img').length,
        handlers: Array.from(document.querySelectorAll('*')).filter((e) => Array.from(e.attributes).some((a) => /^on/i.test(a.name))).length,
        tagAsText: (text.match(/<img src=x onerror=/g) || []).length, sourceAsText: text.includes('*/'), title: document.title };
    });
    await sleep(300);
    check('hostile_drills_opened', opened.boxes >= 10, opened);
    check('hostile_no_elements', opened.imgs === 0 && opened.handlers === 0 && !/PWNED/.test(opened.title), opened);
    check('hostile_names_as_text', opened.tagAsText >= 10 && opened.sourceAsText, opened);
    check('hostile_console_quiet', hostile.length === 0, hostile);
    if (shot) { // a fresh page, as a reader first sees it
      const fresh = await open(browser, facts.small.page, small);
      await fresh.page.setViewport({ width: 1280, height: 2300 });
      await sleep(1500);
      await fresh.page.screenshot({ path: shot });
      console.log('screenshot: ' + shot);
    }
  } finally {
    await browser.close();
  }
  process.exit(failed);
})().catch((e) => { console.log('FAIL ' + e.stack); process.exit(1); });
