"""The inline CSS and vanilla JavaScript of the single-file HTML export (no network, no CDN).

The JS is small on purpose: tabs, the pass stepper (slider, prev/next, arrow keys, a
"changed only" filter), graph highlighting by `data-instruction`, and click-to-select a node
in both graphs, name scopes: the scopes a pass changed marked in the stepper, and in the Graph
panel scopes opened and closed by a click, and a search box (hloscope.viz.export_scopes).
Graphs are pre-rendered SVGs kept in `<template>`s and cloned on demand.
"""

PAGE_CSS = """
body.hloscope { margin: 0; background: #ffffff; }
header { padding: 8px 16px; border-bottom: 1px solid #d0d7de; background: #f6f8fa; position: sticky; top: 0; z-index: 2; }
header h1 { font-size: 17px; margin: 0 0 6px 0; }
nav button { border: 1px solid #d0d7de; background: #ffffff; border-radius: 6px; padding: 3px 10px; margin-right: 4px;
  cursor: pointer; font-size: 13px; }
nav button.active { background: #0969da; color: #ffffff; border-color: #0969da; }
.panel { padding: 10px 16px; }
.controls { display: flex; align-items: center; gap: 8px; flex-wrap: wrap; margin-bottom: 6px; }
.controls input[type=range] { flex: 1; min-width: 200px; }
#pass-name { font-size: 16px; font-weight: 600; }
.side-by-side { display: flex; gap: 10px; align-items: flex-start; }
.side-by-side > div { flex: 1; min-width: 0; }
.graph-box { overflow: auto; max-height: 75vh; border: 1px solid #eaeef2; border-radius: 4px; min-height: 60px; }
.graph-box svg { max-width: 100%; height: auto; }
.graph-box.zoomed svg { max-width: none; }
.hlo-node { cursor: pointer; }
.hl-added :is(path, polygon, ellipse) { fill: #c9f2c7; stroke: #1a7f37; stroke-width: 2.5px; }
.hl-removed :is(path, polygon, ellipse) { fill: #ffd4d4; stroke: #cf222e; stroke-width: 2.5px; stroke-dasharray: 4 2; }
.hl-changed :is(path, polygon, ellipse) { fill: #ffe8a3; stroke: #9a6700; stroke-width: 2.5px; }
.hl-selected :is(path, polygon, ellipse) { stroke: #0969da; stroke-width: 4px; }
.legend span { display: inline-block; padding: 0 6px; margin-right: 4px; border-radius: 3px; font-size: 11px; }
pre.plain { background: #f8f8fa; padding: 8px 10px; font-size: 12px; overflow: auto; max-height: 40em;
  font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.hlo-scope, .hlo-scope-box text { cursor: pointer; }
.hlo-scope-box:is(.hl-added, .hl-removed, .hl-changed) :is(path, polygon) { fill-opacity: 0.3; }
.scope-controls { display: flex; gap: 8px; align-items: center; margin: 4px 0; }
#graph-search { width: 320px; }
#graph-view-note, .hs-scope-changes { font-size: 12px; color: #57606a; }
#graph-search-results button { font-size: 11px; margin: 1px 2px; border: 1px solid #d0d7de; background: #f6f8fa;
  border-radius: 4px; cursor: pointer; }
#selection { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; color: #0550ae; }
"""

PAGE_JS = r"""
(function () {
  const $ = (id) => document.getElementById(id);
  const panels = [...document.querySelectorAll('.panel')];
  const tabs = [...document.querySelectorAll('nav button[data-panel]')];
  function show(name) {
    panels.forEach((p) => { p.hidden = p.id !== 'panel-' + name; });
    tabs.forEach((b) => b.classList.toggle('active', b.dataset.panel === name));
  }
  tabs.forEach((b) => b.addEventListener('click', () => { show(b.dataset.panel); history.replaceState(null, '', '#' + b.dataset.panel); }));
  // a link to '#stepper:21' opens pass run 21
  const [startPanel, startStep] = (location.hash || '#overview').slice(1).split(':');
  show(startPanel);

  function mark(box, names, cls) {
    if (!names) return;
    const wanted = new Set(names.split(' '));
    box.querySelectorAll('[data-instruction]').forEach((g) => { if (wanted.has(g.dataset.instruction)) g.classList.add(cls); });
  }
  function put(box, templateId, names, cls, changed) {
    const t = templateId && $(templateId);
    box.replaceChildren(t ? t.content.cloneNode(true) : document.createTextNode('no graph'));
    mark(box, names, cls);
    mark(box, changed, 'hl-changed');
  }

  const steps = [...document.querySelectorAll('#steps .step')];
  const slider = $('pass-slider'), only = $('pass-changed-only');
  let current = steps[+startStep || 0] || steps[0] || null;
  function visible() { return steps.filter((s) => !only.checked || s.dataset.changed === '1'); }
  function render() {
    const vis = visible();
    if (!vis.length) { $('pass-name').textContent = 'no pass to show'; return; }
    let i = vis.indexOf(current);
    if (i < 0) { i = vis.findIndex((s) => +s.dataset.index >= +(current ? current.dataset.index : 0)); if (i < 0) i = vis.length - 1; }
    current = vis[i];
    slider.max = vis.length - 1; slider.value = i;
    $('pass-position').textContent = (i + 1) + ' / ' + vis.length;
    $('pass-name').textContent = current.dataset.title;
    $('pass-detail').innerHTML = current.querySelector('.s-detail').innerHTML;
    $('pass-diff').innerHTML = current.querySelector('.s-diff').innerHTML;
    put($('graph-before'), current.dataset.before, current.dataset.removed, 'hl-removed', current.dataset.changedNames);
    put($('graph-after'), current.dataset.after, current.dataset.added, 'hl-added', current.dataset.changedNames);
    markScopes($('graph-before'), current.dataset.scopes, ['removed', 'changed']);
    markScopes($('graph-after'), current.dataset.scopes, ['added', 'changed']);
  }
  // the name scopes holding what a pass added/removed/changed (hloscope.viz.scope_changes)
  function markScopes(box, json, kinds) {
    if (!json) return;
    const marks = JSON.parse(json);
    kinds.forEach((kind) => {
      const wanted = new Set(marks[kind] || []);
      box.querySelectorAll('[data-scope]').forEach((g) => { if (wanted.has(g.dataset.scope)) g.classList.add('hl-' + kind); });
    });
  }
  function step(delta) {
    const vis = visible(); if (!vis.length) return;
    current = vis[Math.max(0, Math.min(vis.length - 1, vis.indexOf(current) + delta))]; render();
  }
  if (slider && steps.length) {
    slider.addEventListener('input', () => { current = visible()[+slider.value]; render(); });
    $('pass-prev').addEventListener('click', () => step(-1));
    $('pass-next').addEventListener('click', () => step(1));
    only.addEventListener('change', render);
    document.addEventListener('keydown', (e) => {
      if ($('panel-stepper').hidden || e.target.tagName === 'INPUT' && e.target.type !== 'range') return;
      if (e.key === 'ArrowLeft') { step(-1); e.preventDefault(); }
      if (e.key === 'ArrowRight') { step(1); e.preventDefault(); }
    });
    document.querySelectorAll('tr[data-index]').forEach((row) => row.addEventListener('click', () => {
      current = steps[+row.dataset.index]; only.checked = only.checked && current.dataset.changed === '1'; render(); show('stepper');
    }));
    render();
  }

  document.addEventListener('click', (e) => {
    const node = e.target.closest && e.target.closest('[data-instruction]');
    if (!node || !node.closest('.graph-box, .hs-memory-chart')) return;
    const name = node.dataset.instruction;
    document.querySelectorAll('.hl-selected').forEach((g) => g.classList.remove('hl-selected'));
    document.querySelectorAll('[data-instruction]').forEach((g) => { if (g.dataset.instruction === name) g.classList.add('hl-selected'); });
    const sel = $('selection'); if (sel) sel.textContent = 'selected: ' + name;
  });
  scopeViews();
  document.querySelectorAll('.zoom').forEach((b) => b.addEventListener('click', () => {
    document.querySelectorAll('.graph-box').forEach((g) => g.classList.toggle('zoomed'));
  }));

  // Graph panel of a module with name scopes (hloscope.viz.export_scopes): every view a click
  // can ask for was laid out at export time: the first view, and each scope toggled in it.
  function scopeViews() {
    const indexEl = $('scope-index'), final = $('graph-final');
    if (!indexEl || !final) return;
    const index = JSON.parse(indexEl.textContent);
    const firstView = [...final.childNodes].map((n) => n.cloneNode(true));
    const openInFirst = new Set(index.open);
    const note = (text) => { $('graph-view-note').textContent = text; };
    let shown = '';
    function showView(key) {
      const v = key ? index.views[key] : null;
      if (v && $(v[0])) {
        final.replaceChildren($(v[0]).content.cloneNode(true));
        shown = key; note((v[1] === 'open' ? 'opened ' : 'closed ') + key + ' (click it again for the first view)');
        return;
      }
      final.replaceChildren(...firstView.map((n) => n.cloneNode(true)));
      shown = ''; note(key ? 'no view of ' + key + ' was laid out (export budget): first view' : 'first view');
    }
    final.addEventListener('click', (e) => {
      const g = e.target.closest && e.target.closest('[data-scope]');
      if (g) showView(g.dataset.scope === shown ? '' : g.dataset.scope);
    });
    $('graph-first-view').addEventListener('click', () => showView(''));
    const parentOf = (key) => key.split('/').slice(0, -1).join('/');
    // the view opening `key`, else its nearest parent with one (not every view was laid out)
    function viewFor(key) {
      for (let k = key; k; k = parentOf(k)) if (index.views[k] && index.views[k][1] === 'open') return k;
      return '';
    }
    function go(kind, name) {
      const key = kind === 'scope' ? name : index.instructions[name];
      const drawn = kind === 'scope' ? (!parentOf(key) || openInFirst.has(parentOf(key))) : (!key || openInFirst.has(key));
      showView(drawn ? '' : viewFor(key));
      const attr = kind === 'scope' ? 'data-scope' : 'data-instruction';
      document.querySelectorAll('.hl-selected').forEach((g) => g.classList.remove('hl-selected'));
      let hit = final.querySelector('[' + attr + '="' + CSS.escape(name) + '"]');
      for (let k = key; !hit && k; k = parentOf(k)) hit = final.querySelector('[data-scope="' + CSS.escape(k) + '"]');
      if (hit) { hit.classList.add('hl-selected'); hit.scrollIntoView({ block: 'center', inline: 'center' }); }
    }
    const search = $('graph-search'), results = $('graph-search-results');
    search.addEventListener('input', () => {
      const q = search.value.trim().toLowerCase();
      results.replaceChildren();
      if (!q) return;
      const hits = Object.keys(index.scopes).filter((k) => k.toLowerCase().includes(q)).map((k) => ['scope', k])
        .concat(Object.keys(index.instructions).filter((n) => n.toLowerCase().includes(q)).map((n) => ['instruction', n]));
      hits.slice(0, 30).forEach(([kind, name]) => {
        const b = document.createElement('button');
        b.type = 'button';
        b.textContent = kind === 'scope' ? 'scope ' + name + ' (' + index.scopes[name] + ')'
          : name + (index.instructions[name] ? ' in ' + index.instructions[name] : '');
        b.addEventListener('click', () => go(kind, name));
        results.appendChild(b);
      });
      if (hits.length > 30) results.appendChild(document.createTextNode(' ... ' + (hits.length - 30) + ' more'));
    });
    search.addEventListener('keydown', (e) => {
      const b = results.querySelector('button');
      if (e.key === 'Enter' && b) b.click();
    });
  }
})();
"""
