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

  // ---- the drill-down: a data object's row to the functions that touch it, a function's to its data objects
  // (blocks of [row index, name, detail, samples, total latency], analysis/report/html/drill_rows.c)
  function drill(block) {
    var table = document.getElementById(block.getAttribute('data-table'));
    if (!table || !table.tBodies[0]) return;
    var lists = {}, ncols = table.tHead.rows[0].cells.length, top = block.getAttribute('data-top');
    JSON.parse(block.textContent).forEach(function (r) { (lists[r[0]] = lists[r[0]] || []).push(r); });
    var objects = table.id === 'data-objects';
    var head = objects ? ['function', 'binary', 'samples', 'total latency'] : ['data object', 'type', 'samples', 'total latency'];
    table.classList.add('drillable');
    table.setAttribute('title', objects ? 'click a row for the functions that touch the object'
                                        : 'click a row for the data objects the function touches');
    table.tBodies[0].addEventListener('click', function (e) {
      if (e.target.closest('a, button, input, select')) return;
      var tr = e.target.closest('tr');
      if (!tr || !tr.hasAttribute('data-i')) return;
      var next = tr.nextElementSibling;
      if (next && next.classList.contains('drill')) { next.remove(); tr.classList.remove('open'); return; }
      var list = lists[tr.getAttribute('data-i')] || [];
      var box = el('tr', 'drill'), td = el('td');
      td.colSpan = ncols;
      box.appendChild(td);
      if (!list.length) {
        td.appendChild(el('p', 'none', objects ? 'No function listed for it.' : 'It touched no known data object.'));
      } else {
        td.appendChild(el('p', 'none', (objects ? 'The top ' + top + ' functions touching it' : 'The top ' + top +
          ' data objects it touches') + ', by the total latency of those accesses:'));
        var t = el('table', 'drill-list'), hr = el('tr');
        head.forEach(function (h, j) { hr.appendChild(el('th', j > 1 ? 'n' : null, h)); });
        t.appendChild(el('thead')).appendChild(hr);
        var body = t.appendChild(el('tbody'));
        list.forEach(function (r) {
          var row = el('tr');
          row.appendChild(el('td', 'mono', r[1] === null ? '\u2013' : r[1]));
          var detail = objects && r[2] ? r[2].replace(/^.*\//, '') : r[2];
          var d = row.appendChild(el('td', objects ? null : 'mono', detail === null ? '\u2013' : detail));
          if (objects && r[2]) d.title = r[2];
          row.appendChild(el('td', 'n', r[3] === null ? '\u2013' : r[3]));
          row.appendChild(el('td', 'n', r[4] === null ? '\u2013' : r[4]));
          body.appendChild(row);
        });
        td.appendChild(t);
      }
      tr.classList.add('open');
      tr.parentNode.insertBefore(box, tr.nextSibling);
    });
  }
  var drills = document.querySelectorAll('script.drill[data-table]');
  for (var d = 0; d < drills.length; d++) drill(drills[d]);

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
