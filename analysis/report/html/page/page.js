// SPDX-License-Identifier: Apache-2.0
// The page's own script (spe-report --html), after the d3-flame-graph bundle.
// It only reads the page: the rows of the ranked tables and the flame graphs
// come as JSON data blocks the C side escaped (analysis/report/html/table_rows.c),
// and every value goes into the page as text (textContent), never as markup.
// No style attribute is written as markup (the page's CSP allows its one style
// sheet): looks are classes; d3 sets sizes through the CSSOM.
(function () {
  'use strict';
  var t0 = performance.now();

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function thousands(n) { return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ','); }
  function cmp(a, b) {
    if (a === b) return 0;
    if (a === null || a === undefined) return -1;
    if (b === null || b === undefined) return 1;
    if (typeof a === 'number' && typeof b === 'number') return a - b;
    return String(a).localeCompare(String(b), undefined, { numeric: true });
  }

  // ---- the heatmap's CPU switch
  var pick = document.getElementById('hm-cpu');
  if (pick) {
    pick.addEventListener('change', function () {
      var maps = document.querySelectorAll('figure.hm');
      for (var i = 0; i < maps.length; i++)
        maps[i].hidden = maps[i].getAttribute('data-cpu') !== pick.value;
    });
  }

  // ---- a toolbar above a table: search box, pages, page size
  function toolbar(table, count, paged) {
    var bar = el('div', 'tbar');
    var search = el('input');
    search.type = 'search';
    search.placeholder = 'search ' + thousands(count) + ' rows';
    search.setAttribute('aria-label', 'search the rows');
    bar.appendChild(search);
    var parts = { bar: bar, search: search };
    if (paged) {
      parts.prev = el('button', 'pg', '\u2039 previous');
      parts.next = el('button', 'pg', 'next \u203a');
      parts.prev.type = parts.next.type = 'button';
      parts.status = el('span', 'pgstat');
      parts.size = el('select');
      parts.size.setAttribute('aria-label', 'rows per page');
      [10, 25, 100, 500].forEach(function (n) { parts.size.appendChild(el('option', null, n + ' per page')).value = n; });
      bar.appendChild(parts.prev);
      bar.appendChild(parts.status);
      bar.appendChild(parts.next);
      bar.appendChild(parts.size);
    } else {
      parts.status = el('span', 'pgstat');
      bar.appendChild(parts.status);
    }
    var host = table.parentNode && table.parentNode.classList.contains('scroll') ? table.parentNode : table;
    host.parentNode.insertBefore(bar, host);
    return parts;
  }

  function sortable(table, onSort) {
    var ths = table.tHead ? table.tHead.rows[0].cells : [];
    var state = { col: -1, dir: 1 };
    Array.prototype.forEach.call(ths, function (th, j) {
      if (th.classList.contains('nosort')) return;
      th.classList.add('sortable');
      th.tabIndex = 0;
      th.title = 'sort by this column';
      function go() {
        state.dir = state.col === j ? -state.dir : (th.classList.contains('n') ? -1 : 1);
        state.col = j;
        Array.prototype.forEach.call(ths, function (o) { o.classList.remove('asc', 'desc'); });
        th.classList.add(state.dir > 0 ? 'asc' : 'desc');
        onSort(j, state.dir);
      }
      th.addEventListener('click', go);
      th.addEventListener('keydown', function (e) { if (e.key === 'Enter') go(); });
    });
  }

  // ---- a ranked table over every row of its data block
  function dataTable(block) {
    var table = document.getElementById(block.getAttribute('data-table'));
    if (!table || !table.tBodies[0]) return;
    var rows = JSON.parse(block.textContent);
    var tbody = table.tBodies[0];
    var drawn = Array.prototype.slice.call(tbody.rows); // rows 0.. drawn by the C side, with their charts
    var ths = table.tHead.rows[0].cells;
    var ncols = ths.length, nvals = rows.length ? rows[0].length : ncols;
    for (var j = nvals; j < ncols; j++) ths[j].classList.add('nosort'); // the charts' columns
    var shareCol = -1; // the total latency column: shares of what is left out are of it (the share column is rounded)
    for (j = 0; j < nvals; j++) if (/^total latency/i.test(ths[j].textContent)) shareCol = j;
    var embeddedTotal = 0;
    if (shareCol >= 0) rows.forEach(function (r) { if (typeof r[shareCol] === 'number') embeddedTotal += r[shareCol]; });
    var order = rows.map(function (r, i) { return i; });
    var view = order, page = 0, size = parseInt(block.getAttribute('data-page'), 10) || 25;
    if ([10, 25, 100, 500].indexOf(size) < 0) size = size < 10 ? 10 : size < 25 ? 25 : size < 100 ? 100 : 500;
    var keys = null;
    var ui = toolbar(table, rows.length, true);
    ui.size.value = size;
    var more = document.querySelector('p.more[data-table="' + table.id + '"]');
    var noun = more ? (more.getAttribute('data-noun') || 'rows') : 'rows';

    function rowOf(i) {
      if (i < drawn.length) { drawn[i].setAttribute('data-i', String(i)); return drawn[i]; }
      var tr = el('tr'), r = rows[i];
      tr.setAttribute('data-i', String(i)); // the row's index in its block: the drill-down's key
      for (var k = 0; k < ncols; k++) {
        var v = k < r.length ? r[k] : '';
        var td = el('td', ths[k].classList.contains('n') ? 'n' : (k === 1 ? 'mono' : null),
                    v === null ? '\u2013' : v);
        tr.appendChild(td);
      }
      return tr;
    }
    function draw() {
      var pages = Math.max(1, Math.ceil(view.length / size));
      if (page >= pages) page = pages - 1;
      var from = page * size, to = Math.min(view.length, from + size);
      var frag = document.createDocumentFragment();
      for (var k = from; k < to; k++) frag.appendChild(rowOf(view[k]));
      while (tbody.firstChild) tbody.removeChild(tbody.firstChild);
      tbody.appendChild(frag);
      ui.status.textContent = (view.length ? 'rows ' + thousands(from + 1) + '\u2013' + thousands(to) : 'no rows') +
        ' of ' + thousands(view.length) + (view.length < rows.length ? ' (of ' + thousands(rows.length) + ')' : '');
      ui.prev.disabled = page === 0;
      ui.next.disabled = page >= pages - 1;
      if (more) {
        var absent = parseInt(more.getAttribute('data-absent'), 10) || 0;
        var absentShare = parseFloat(more.getAttribute('data-absent-share')) || 0;
        var left = rows.length - (to - from) + absent, share = absentShare;
        if (shareCol >= 0 && embeddedTotal > 0) {
          var all = embeddedTotal / Math.max(1e-9, 1 - absentShare / 100), onPage = 0;
          for (k = from; k < to; k++) if (typeof rows[view[k]][shareCol] === 'number') onPage += rows[view[k]][shareCol];
          share = 100 * (embeddedTotal - onPage) / all + absentShare;
        }
        more.textContent = left > 0 ? thousands(left) + ' more ' + noun +
          (shareCol >= 0 ? ', ' + share.toFixed(1) + ' % of the latency' : '') + ', not on this page' +
          (absent > 0 ? '; ' + thousands(absent) + ' of them (' + absentShare.toFixed(1) + ' % of the latency) ' +
            'are not in this file, which holds the first ' + thousands(rows.length) + ' rows: spe-query "SELECT * FROM ' +
            more.getAttribute('data-view') + '" lists them.' : ' (search, sort or page to reach them).') : '';
      }
      table.setAttribute('data-drawn', String(to - from));
    }
    function filter() {
      var q = ui.search.value.trim().toLowerCase();
      if (!q) { view = order; } else {
        if (!keys) keys = rows.map(function (r) { return r.join('\u0001').toLowerCase(); });
        view = order.filter(function (i) { return keys[i].indexOf(q) >= 0; });
      }
      page = 0;
      draw();
    }
    var pending = 0;
    ui.search.addEventListener('input', function () { clearTimeout(pending); pending = setTimeout(filter, 120); });
    ui.prev.addEventListener('click', function () { page--; draw(); });
    ui.next.addEventListener('click', function () { page++; draw(); });
    ui.size.addEventListener('change', function () { size = parseInt(ui.size.value, 10); page = 0; draw(); });
    sortable(table, function (j, dir) {
      order = order.slice().sort(function (a, b) { return dir * cmp(rows[a][j], rows[b][j]) || a - b; });
      filter();
    });
    draw();
  }

  // ---- any other table: its rows sorted and filtered where they are
  function domTable(table) {
    var tbody = table.tBodies[0];
    if (!tbody || tbody.rows.length < 2 || !table.tHead) return;
    var rows = Array.prototype.slice.call(tbody.rows);
    var ui = toolbar(table, rows.length, false);
    function status() {
      var n = rows.filter(function (r) { return !r.hidden; }).length;
      ui.status.textContent = thousands(n) + ' of ' + thousands(rows.length) + ' rows';
    }
    ui.search.addEventListener('input', function () {
      var q = ui.search.value.trim().toLowerCase();
      rows.forEach(function (r) { r.hidden = q !== '' && r.textContent.toLowerCase().indexOf(q) < 0; });
      status();
    });
    sortable(table, function (j, dir) {
      var num = table.tHead.rows[0].cells[j].classList.contains('n');
      function val(r) {
        var t = r.cells[j] ? r.cells[j].textContent.trim() : '';
        if (num) { var v = parseFloat(t.replace(/,/g, '')); return isNaN(v) ? null : v; }
        return t;
      }
      rows.slice().sort(function (a, b) { return dir * cmp(val(a), val(b)) || rows.indexOf(a) - rows.indexOf(b); })
        .forEach(function (r) { tbody.appendChild(r); });
    });
    status();
  }

  var blocks = document.querySelectorAll('script.rows[data-table]');
  var withData = {};
  for (var b = 0; b < blocks.length; b++) {
    withData[blocks[b].getAttribute('data-table')] = 1;
    dataTable(blocks[b]);
  }
  var tables = document.querySelectorAll('main table');
  for (var t = 0; t < tables.length; t++) {
    var tb = tables[t];
    if (withData[tb.id] || tb.closest('.ann') || tb.classList.contains('matrix')) continue;
    domTable(tb);
  }

  // ---- the drill-downs: under a clicked row, lists from JSON blocks of [row index, name, detail, samples,
  // total latency] (analysis/report/html/drill_rows.c): a data object's functions, a function's data objects,
  // a shared cache line's functions and threads; under a function also its annotation (ann_rows.c), under an
  // instruction the data pages, lines, addresses and data objects it touched
  var drillSpecs = {
    'data-objects': { '': { head: ['function', 'binary'], what: 'functions touching it', none: 'No function listed for it.', path: 1 } },
    'hot-symbol': { '': { head: ['data object', 'type'], what: 'data objects it touches', none: 'It touched no known data object.' } },
    'cacheline-sharing': {
      functions: { head: ['function', 'binary'], what: 'functions using the line', none: 'No function listed for it.', path: 1 },
      threads: { head: ['thread', 'command'], what: 'threads using the line', none: 'No thread listed for it.' }
    }
  };
  function fmt(v) { return v === null || v === undefined ? '\u2013' : typeof v === 'number' ? thousands(v) : v; }
  // a small table: HEAD over ROWS of cells (numbers right-aligned from column NUMFROM)
  function listTable(cls, head, rows, numFrom) {
    var t = el('table', cls), hr = el('tr');
    head.forEach(function (h, j) { hr.appendChild(el('th', j >= numFrom ? 'n' : null, h)); });
    t.appendChild(el('thead')).appendChild(hr);
    var body = t.appendChild(el('tbody'));
    rows.forEach(function (r) {
      var row = body.appendChild(el('tr'));
      r.forEach(function (v, j) { row.appendChild(el('td', j >= numFrom ? 'n' : 'mono', fmt(v))); });
    });
    return t;
  }
  function drillList(spec, list, top) {
    var part = el('div', 'drill-part');
    if (!list.length) { part.appendChild(el('p', 'none', spec.none)); return part; }
    part.appendChild(el('p', 'none', 'The top ' + top + ' ' + spec.what + ', by the total latency of those accesses:'));
    var t = listTable('drill-list', spec.head.concat(['samples', 'total latency']), list.map(function (r) {
      return [r[1], spec.path && r[2] ? r[2].replace(/^.*\//, '') : r[2], r[3], r[4]];
    }), 2);
    list.forEach(function (r, k) {
      var cells = t.tBodies[0].rows[k].cells;
      if (spec.path && r[2]) cells[1].title = r[2];
      cells[2].textContent = r[3] === null ? '\u2013' : String(r[3]); // the raw numbers, as the database has them
      cells[3].textContent = r[4] === null ? '\u2013' : String(r[4]);
    });
    part.appendChild(t);
    return part;
  }

  // the rows of each ranked table's data block, by table id
  function blockRows(id) {
    var blk = document.querySelector('script.rows[data-table="' + id + '"]');
    if (!blk) return null;
    if (!blk.parsed) blk.parsed = JSON.parse(blk.textContent);
    return blk.parsed;
  }

  // an instruction -> its data: [instruction row, kind (page, line, address, object), the address or the
  // object's name, samples, total latency], the row the instructions table's (hot_pc's) in its block; the
  // annotations' instructions are those rows too
  var pcBlock = document.querySelector('script.pc-data'), pcLists = null;
  function pcData(k) {
    if (!pcLists) {
      pcLists = {};
      JSON.parse(pcBlock.textContent).forEach(function (r) { (pcLists[r[0]] = pcLists[r[0]] || [[], [], [], []])[r[1]].push(r); });
    }
    return pcLists[k] || null;
  }
  // the box under an instruction's row (K its row in the instructions table's block, -1 when not there)
  function pcBox(k, pc, ncols) {
    var box = el('tr', 'drill pc-drill'), td = box.appendChild(el('td'));
    td.colSpan = ncols;
    var ask = 'spe-query "SELECT data_va, count(*), sum(total_latency) FROM spe_sample WHERE pc = \'' + pc +
      '\' GROUP BY 1 ORDER BY 3 DESC" lists its data addresses.';
    if (!pcBlock) {
      td.appendChild(el('p', 'none', 'The data addresses of instructions are not in this page (it is drawn from ClickHouse, ' +
        'whose report does not scan the records): ' + ask));
    } else if (k === -2) {
      td.appendChild(el('p', 'none', 'No record was sampled at it.'));
    } else if (k < 0 || k >= Number(pcBlock.getAttribute('data-rows'))) {
      td.appendChild(el('p', 'none', 'The page holds the data of the ' + pcBlock.getAttribute('data-rows') +
        ' instructions of the highest total latency, and this one is not among them: ' + ask));
    } else if (!pcData(k)) {
      td.appendChild(el('p', 'none', 'It touched no data address (no record of it has one).'));
    } else {
      var names = ['4 KiB pages', '64-byte lines', 'data addresses', 'data objects'], heads = ['page', 'line', 'address', 'object'];
      td.appendChild(el('p', 'none', 'The data it touched, the top ' + pcBlock.getAttribute('data-top') +
        ' of each by the total latency of its accesses:'));
      var grid = td.appendChild(el('div', 'pc-lists'));
      pcData(k).forEach(function (list, kind) {
        var part = grid.appendChild(el('div'));
        part.appendChild(el('p', 'none', names[kind]));
        var t = part.appendChild(listTable('pc-list', [heads[kind], 'samples', 'total latency'],
          list.map(function (r) { return [r[2], r[3], r[4]]; }), 1));
        t.setAttribute('data-kind', heads[kind]);
      });
    }
    return box;
  }
  function togglePc(tr, k, pc, ncols) {
    var next = tr.nextElementSibling;
    if (next && next.classList.contains('pc-drill')) { next.remove(); tr.classList.remove('open'); return; }
    tr.classList.add('open');
    tr.parentNode.insertBefore(pcBox(k, pc, ncols), tr.nextSibling);
  }

  // a function -> its annotation, drawn from the instructions table's rows and the ann-data block (ann_rows.c)
  var annBlock = document.querySelector('script.ann-data'), annIndex = null;
  function annData() {
    if (annIndex || !annBlock) return annIndex;
    var d = JSON.parse(annBlock.textContent);
    annIndex = { d: d, byFn: {}, src: {} };
    d.fn.forEach(function (f, k) { if (f !== null) (annIndex.byFn[f] = annIndex.byFn[f] || []).push(k); });
    d.src.forEach(function (r) { annIndex.src[r[0] + ':' + r[1]] = r[2]; });
    return annIndex;
  }
  function shadeClass(share) { return share > 0 ? 'sh0-' + Math.min(20, Math.round(20 * (0.08 + 0.62 * Math.sqrt(share)))) : null; }
  function pct(v, total) { return total > 0 && typeof v === 'number' ? (100 * v / total).toFixed(1) + '%' : ''; }
  function hexLess(a, b) { // PCs as hex text, up to 64 bits
    a = a.replace(/^0x0*/, ''); b = b.replace(/^0x0*/, '');
    return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
  }
  function annotation(i) {
    var fnRows = blockRows('hot-symbol'), pcRows = blockRows('hot-pc'), fr = fnRows ? fnRows[i] : null;
    var part = el('div', 'ann-od');
    var name = fr ? fr[1] : null, samples = fr && typeof fr[4] === 'number' ? fr[4] : 0;
    var total = fr && typeof fr[5] === 'number' ? fr[5] : 0;
    var h = part.appendChild(el('h4', null, 'Annotation of '));
    h.appendChild(el('code', null, name));
    if (!annBlock || !pcRows) {
      part.appendChild(el('p', 'none', 'The annotation of every function is not in this page (it is drawn from ClickHouse, ' +
        'whose page does not read the instructions by function): spe-report --annotate prints it.'));
      return part;
    }
    var a = annData(), list = (a.byFn[i] || []).slice().sort(function (x, y) { return hexLess(pcRows[x][0], pcRows[y][0]); });
    var shownN = 0, shownLat = 0;
    list.forEach(function (k) { shownN += pcRows[k][4]; shownLat += typeof pcRows[k][5] === 'number' ? pcRows[k][5] : 0; });
    var held = thousands(pcRows.length), ask = name === '(no symbol)' ? '' : ': spe-query "SELECT * FROM hot_pc WHERE symbol = \'' +
      name + '\'" lists them';
    var said = name === '(no symbol)' ? 'No symbol: no instructions to annotate.'
      : !list.length ? 'None of its instructions is among the ' + held + ' of the highest total latency this page holds' + ask + '.'
      : 'Its ' + thousands(list.length) + (list.length === 1 ? ' sampled instruction' : ' sampled instructions') +
        ' in this page, shaded by their share of its latency (' + pct(shownLat, total) + ' of it)' +
        (shownN < samples ? '; ' + thousands(samples - shownN) + ' more samples, ' + pct(total - shownLat, total) +
          ' of its latency, are in instructions not in this page, which holds the ' + held + ' of the highest total latency' + ask
          : '; they hold all its samples') + '.';
    part.appendChild(el('p', list.length ? null : 'none', said));
    if (!list.length) return part;
    // the source lines of those instructions, where the file was read
    var lines = {}, order = [];
    list.forEach(function (k) {
      var f = a.d.file[k], m = /:(\d+)$/.exec(pcRows[k][2] || '');
      if (f === null || f === undefined || !m) return;
      var key = f + ':' + m[1];
      if (!lines[key]) { lines[key] = { f: f, line: Number(m[1]), n: 0, lat: 0 }; order.push(key); }
      lines[key].n += pcRows[k][4];
      lines[key].lat += typeof pcRows[k][5] === 'number' ? pcRows[k][5] : 0;
    });
    order.sort(function (x, y) { return lines[x].f - lines[y].f || lines[x].line - lines[y].line; });
    var grid = part.appendChild(el('div', 'ann-grid'));
    var st = grid.appendChild(el('div')).appendChild(listTable('ann-src', ['line', 'share', 'samples', 'source'], [], 1));
    st.tHead.rows[0].cells[3].className = '';
    var lastFile = -1;
    order.forEach(function (key) {
      var l = lines[key], tb = st.tBodies[0];
      if (l.f !== lastFile) {
        lastFile = l.f;
        var file = a.d.files[l.f];
        tb.appendChild(el('tr', 'gap')).appendChild(el('td', null, file[0] + (file[1] ? ' (no source text: ' + file[1] + ')' : '')))
          .colSpan = 4;
      }
      var tr = tb.appendChild(el('tr', shadeClass(total > 0 ? l.lat / total : 0)));
      tr.appendChild(el('td', 'ln', l.line));
      tr.appendChild(el('td', 'n', pct(l.lat, total)));
      tr.appendChild(el('td', 'n', l.n));
      var text = a.src[key];
      tr.appendChild(el('td', 'src', text === undefined ? '' : text));
    });
    if (!order.length) st.tBodies[0].appendChild(el('tr', 'gap')).appendChild(el('td', null, 'No line table for these instructions.')).colSpan = 4;
    var at = grid.appendChild(el('div')).appendChild(listTable('ann-asm',
      ['address', 'share', 'samples', 'total latency', 'mean', 'instruction', 'source'], [], 1));
    at.tHead.rows[0].cells[5].className = at.tHead.rows[0].cells[6].className = '';
    list.forEach(function (k) {
      var r = pcRows[k], tr = at.tBodies[0].appendChild(el('tr', shadeClass(total > 0 && typeof r[5] === 'number' ? r[5] / total : 0)));
      tr.setAttribute('data-pc', r[0]);
      tr.setAttribute('data-k', String(k));
      tr.title = 'click for the data it touched';
      tr.appendChild(el('td', 'mono', r[0]));
      tr.appendChild(el('td', 'n', pct(r[5], total)));
      tr.appendChild(el('td', 'n', r[4]));
      tr.appendChild(el('td', 'n', r[5] === null ? '\u2013' : r[5]));
      tr.appendChild(el('td', 'n', r[6] === null ? '\u2013' : r[6]));
      tr.appendChild(el('td', 'insn', r[3]));
      tr.appendChild(el('td', 'ln', r[2] === null ? '' : r[2]));
    });
    at.tBodies[0].addEventListener('click', function (e) {
      var tr = e.target.closest('tr[data-k]');
      if (tr) togglePc(tr, Number(tr.getAttribute('data-k')), tr.getAttribute('data-pc'), 7);
    });
    return part;
  }

  function drill(id, blocks) {
    var table = document.getElementById(id);
    if (!table || !table.tBodies[0]) return;
    var specs = drillSpecs[id] || {}, kinds = [], lists = {}, tops = {};
    blocks.forEach(function (block) {
      var kind = block.getAttribute('data-kind') || '';
      if (!specs[kind]) return;
      kinds.push(kind);
      lists[kind] = {};
      tops[kind] = block.getAttribute('data-top');
      JSON.parse(block.textContent).forEach(function (r) { (lists[kind][r[0]] = lists[kind][r[0]] || []).push(r); });
    });
    var withAnn = id === 'hot-symbol';
    if (!kinds.length && !withAnn) return;
    var ncols = table.tHead.rows[0].cells.length;
    table.classList.add('drillable');
    table.setAttribute('title', id === 'data-objects' ? 'click a row for the functions that touch the object'
      : withAnn ? 'click a row for the function\'s annotation and the data objects it touches'
      : 'click a row for the functions and threads that use the line');
    table.tBodies[0].addEventListener('click', function (e) {
      if (e.target.closest('a, button, input, select, tr.drill')) return;
      var tr = e.target.closest('tr');
      if (!tr || !tr.hasAttribute('data-i')) return;
      var next = tr.nextElementSibling;
      if (next && next.classList.contains('drill')) { next.remove(); tr.classList.remove('open'); return; }
      var i = tr.getAttribute('data-i');
      var box = el('tr', 'drill'), td = el('td');
      td.colSpan = ncols;
      box.appendChild(td);
      kinds.forEach(function (kind) { td.appendChild(drillList(specs[kind], lists[kind][i] || [], tops[kind])); });
      if (withAnn) td.appendChild(annotation(Number(i)));
      tr.classList.add('open');
      tr.parentNode.insertBefore(box, tr.nextSibling);
    });
  }
  var drillBlocks = {};
  Array.prototype.forEach.call(document.querySelectorAll('script.drill[data-table]'), function (b) {
    var id = b.getAttribute('data-table');
    (drillBlocks[id] = drillBlocks[id] || []).push(b);
  });
  if (annBlock && !drillBlocks['hot-symbol']) drillBlocks['hot-symbol'] = [];
  Object.keys(drillBlocks).forEach(function (id) { drill(id, drillBlocks[id]); });

  // an instruction of the instructions table, or of a hottest function's annotation, to the data it touched
  var pcTable = document.getElementById('hot-pc');
  if (pcTable && pcTable.tBodies[0] && blockRows('hot-pc')) {
    pcTable.classList.add('drillable');
    pcTable.setAttribute('title', 'click a row for the data pages, lines, addresses and data objects the instruction touched');
    pcTable.tBodies[0].addEventListener('click', function (e) {
      if (e.target.closest('a, button, input, select, tr.drill')) return;
      var tr = e.target.closest('tr[data-i]');
      if (!tr) return;
      var k = Number(tr.getAttribute('data-i'));
      togglePc(tr, k, blockRows('hot-pc')[k][0], pcTable.tHead.rows[0].cells.length);
    });
  }
  var pcRowOf = null; // "pc function" -> the first instructions table row of it
  Array.prototype.forEach.call(document.querySelectorAll('div.ann[id]'), function (div) {
    var code = div.querySelector('h3 code'), asm = div.querySelector('table.ann-asm');
    if (!code || !asm || !asm.tBodies[0]) return;
    asm.tBodies[0].addEventListener('click', function (e) {
      var tr = e.target.closest('tr[data-pc]'), rows = blockRows('hot-pc');
      if (!tr) return;
      if (!pcRowOf && rows && annData()) { // by the function each row is of (ann-data), not by its text
        pcRowOf = {};
        var fnRows = blockRows('hot-symbol'), fns = annData().d.fn;
        rows.forEach(function (r, k) {
          var key = r[0] + ' ' + (fns[k] === null ? '' : fnRows[fns[k]][1]);
          if (!(key in pcRowOf)) pcRowOf[key] = k;
        });
      }
      var key = tr.getAttribute('data-pc') + ' ' + code.textContent, sampled = tr.cells[2].textContent.trim() !== '';
      togglePc(tr, !sampled ? -2 : pcRowOf && key in pcRowOf ? pcRowOf[key] : -1, tr.getAttribute('data-pc'), asm.tHead.rows[0].cells.length);
    });
  });

  // ---- the flame graphs (d3-flame-graph)
  var chartBox = document.getElementById('fg-chart');
  if (chartBox && typeof flamegraph === 'function') {
    var colors = JSON.parse(document.getElementById('fg-colors').textContent);
    var trees = {};
    var viewPick = document.getElementById('fg-view');
    var searchBox = document.getElementById('fg-search');
    var details = document.getElementById('fg-details');
    var chart = null;
    var hash = function (s) { var x = 0; for (var i = 0; i < s.length; i++) x = (x * 31 + s.charCodeAt(i)) | 0; return x; };
    function tree(id) {
      if (!trees[id]) { var blk = document.getElementById(id); trees[id] = blk ? JSON.parse(blk.textContent) : null; }
      return trees[id];
    }
    function drawFlame() {
      var data = tree(viewPick.value);
      while (chartBox.firstChild) chartBox.removeChild(chartBox.firstChild);
      chartBox.setAttribute('data-view', viewPick.value);
      if (!data || !data.v) { chartBox.appendChild(el('p', 'none', 'Nothing to draw in this view.')); return; }
      var total = data.v;
      chart = flamegraph()
        .width(Math.max(600, chartBox.clientWidth || 1200))
        .cellHeight(18)
        .inverted(true)
        .minFrameSize(2)
        .transitionDuration(300)
        .sort(false)
        .setColorMapper(function (d, original) {
          if (d.highlight) return '#ffd54f';
          if (d.data.m !== undefined && colors[d.data.m]) return colors[d.data.m];
          // code and data bars: blues and greys by name (red is kept for slow memory)
          var hue = 200 + (Math.abs(hash(d.data.n || '')) % 40), light = 78 - d.depth * 4;
          return 'hsl(' + hue + ',35%,' + light + '%)';
        })
        .setDetailsElement(details)
        .setSearchHandler(function (results, sum, all) {
          details.textContent = results.length ? results.length + ' bars, ' + (100 * sum / all).toFixed(1) +
            ' % of the latency' : (searchBox.value ? 'no bar matches' : '');
        })
        .onClick(function (d) { chartBox.setAttribute('data-zoom', d && d.data ? d.data.n : ''); });
      chart.label(function (d) {
        return d.data.n + ': ' + thousands(d.value) + ' cycles, ' + (100 * d.value / total).toFixed(1) + ' %';
      });
      one(chartBox).datum(data);
      chart(one(chartBox));
      chartBox.setAttribute('data-zoom', '');
      if (searchBox.value) search();
    }
    // The bundle keeps its d3 modules inside; the chart is called on a selection of one node, which
    // it uses through each, datum and selectAll(...).remove(), d3's way (the data in node.__data__).
    function one(node) {
      return {
        each: function (f) { f.call(node, node.__data__, 0, [node]); return this; },
        datum: function (v) {
          if (!arguments.length) return node.__data__;
          node.__data__ = typeof v === 'function' ? v.call(node, node.__data__, 0, [node]) : v;
          return this;
        },
        selectAll: function (q) {
          return { remove: function () { Array.prototype.forEach.call(node.querySelectorAll(q), function (n) { n.remove(); }); } };
        }
      };
    }
    function search() {
      var q = searchBox.value.trim();
      if (!chart) return;
      if (!q) { chart.clear(); details.textContent = ''; return; }
      chart.search(q.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    }
    var fgPending = 0;
    searchBox.addEventListener('input', function () { clearTimeout(fgPending); fgPending = setTimeout(search, 150); });
    viewPick.addEventListener('change', drawFlame);
    document.getElementById('fg-reset').addEventListener('click', function () {
      if (chart) { chart.resetZoom(); chartBox.setAttribute('data-zoom', ''); }
    });
    drawFlame();
  }

  document.body.setAttribute('data-ready-ms', String(Math.round(performance.now() - t0)));
  document.body.setAttribute('data-ready', '1');
})();
