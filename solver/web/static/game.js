// The game viewer: open a record, step through it, its marks and graph.
"use strict";
const $ = id => document.getElementById(id);
let game = null, notes = {}, at = 0, job = null, uploaded = null, mine = null;

function markClass(m) { return m === "??" ? "mark-qq" : m === "?" ? "mark-q" : m === "?!" ? "mark-di" : ""; }

async function open() {
  showError($("error"), "");
  const source = uploaded !== null ? {text: uploaded} : {shipped: $("shipped").value};
  if (uploaded === null && !$("shipped").value) { showError($("error"), "choose a shipped game or upload a record"); return; }
  const gameNo = Number($("gameno").value) || 1;
  notes = {};
  $("download").hidden = true;
  $("summary").tBodies[0].replaceChildren();
  try {
    const doc = await api("/api/games/open", {...source, game: gameNo});
    game = doc.game;
  } catch (e) { showError($("error"), e.message); return; }
  const t = game.tags;
  $("tags").textContent = Object.entries(t).map(([k, v]) => `${k}: ${v}`).join(" · ");
  at = 0;
  draw();
  const progress = j => {
    const p = j.progress || {};
    $("status").textContent = `annotating: ${j.state}` + (p.of ? ` ${p.done}/${p.of} searches` : "")
      + (j.elapsed !== null ? `, ${j.elapsed.toFixed(1)} s` : "");
  };
  let an;
  if (mine) {
    // a game played here: its review, from the store when it was made before
    try {
      let r = await api(`/api/play/${mine}/review`, {});
      if (!r.cached) {
        job = r.job;
        $("cancel").hidden = false;
        const done = await pollJob(job.id, progress);
        $("cancel").hidden = true;
        job = null;
        if (done.state !== "done") { $("status").textContent = ""; showError($("error"), done.error); return; }
        r = await api(`/api/play/${mine}/review`, {});
      }
      an = r.result;
    } catch (e) { showError($("error"), e.message); return; }
  } else {
    try {
      job = await api("/api/jobs/annotate", {...source, game: gameNo, view: $("view").value,
        samples: Number($("samples").value) || 32, luck_samples: Number($("luck").value)});
    } catch (e) { showError($("error"), e.message); return; }
    $("cancel").hidden = false;
    const done = await pollJob(job.id, progress);
    $("cancel").hidden = true;
    job = null;
    if (done.state !== "done") { $("status").textContent = ""; showError($("error"), done.error); return; }
    an = done.result;
  }
  $("status").textContent = `annotated: view ${an.view}, ${an.seconds} s`;
  document.body.dataset.annotated = "1";
  notes = {};
  // the notes follow the plays in order, one per play
  an.plays.forEach((n, i) => { notes[i] = n; });
  summary(an.players);
  const blob = new Blob([an.record], {type: "text/plain"});
  $("download").href = URL.createObjectURL(blob);
  $("download").hidden = false;
  draw();
}

function hintOf(step) {
  const c = (step.comments || []).find(x => x.includes("[%hint"));
  const m = c && c.match(/\[%hint\s+([^\]]*)\]/);
  return m ? m[1].trim() : null;
}

function summary(rows) {
  const body = $("summary").tBodies[0];
  const hints = {};
  for (const st of game.steps) if (hintOf(st) !== null) hints[st.seat] = (hints[st.seat] || 0) + 1;
  body.replaceChildren(...rows.map(r => el("tr", {"data-seat": r.seat},
    el("td", {}, r.seat), el("td", {}, r.player), el("td", {}, r.plays),
    el("td", {}, r["?!"]), el("td", {}, r["?"]), el("td", {}, r["??"]),
    el("td", {}, fixed(r.average_loss, 2)), el("td", {class: "hints"}, hints[r.seat] || 0),
    el("td", {}, r.points), el("td", {}, r.luck === null || r.luck === undefined ? "" : signed(r.luck, ".1f")))));
}

function draw() {
  if (!game) return;
  const steps = game.steps;
  const s = steps[at];
  $("where").textContent = `hand ${s.hand}, deal ${s.deal}, play ${s.number} · ${at + 1} of ${steps.length}`;
  renderBoard($("board"), s.board);
  const n = notes[at];
  if (n && n.moves && n.moves.length) {
    // the board speaks in cards: each card of the mover's hand carries its value
    const byRank = {};
    for (const m of n.moves) byRank[m.move.replace(/[oceb]$/, "")] = m;
    $("board").querySelectorAll(".seat.mover span.card").forEach(ce => {
      const m = byRank[ce.dataset.card.replace(/[oceb]$/, "")];
      if (m) addBadge(ce, m.value, m.stderr, Math.abs(m.value - n.best_value) < 1e-9, ce.dataset.card === s.card);
    });
  }
  $("play-text").textContent = `${s.seat} plays ${s.card}`;
  const mark = n ? n.mark : s.mark;
  $("play-mark").textContent = mark;
  $("play-mark").className = markClass(mark);
  let best = "";
  if (n && n.forced) best = "forced";
  else if (n && n.value !== null && n.value !== undefined) {
    // as the command line's annotation table prints them (render_games.py)
    best = `value ${signed(n.value, ".2f")}`;
    if (Number(fixed(n.loss, 2)) > 0) best += ` · best ${n.best} (${signed(n.best_value, ".2f")}), loss ${fixed(n.loss, 2)}`;
    if (n.match_note) best += ` · ${n.match_note}`;
    if (n.stderr) best += ` (± ${fixed(n.stderr, 2)})`;
  }
  const asked = hintOf(s);
  if (asked !== null) best += ` · hint asked (${asked})`;
  $("play-best").textContent = best;
  // the plays, a line per deal under a heading per hand
  const plays = $("plays");
  const rows = [];
  let row = null;
  steps.forEach((st, i) => {
    const prev = steps[i - 1];
    if (!prev || prev.hand !== st.hand) rows.push(el("div", {class: "hand-break", "data-hand": st.hand}, `hand ${st.hand}`));
    if (!prev || prev.hand !== st.hand || prev.deal !== st.deal) {
      row = el("div", {class: "deal", "data-hand": st.hand, "data-deal": st.deal}, el("i", {class: "small"}, `deal ${st.deal} `));
      rows.push(row);
    }
    const m = notes[i] ? notes[i].mark : st.mark;
    const sp = el("span", {class: "play" + (i === at ? " here" : ""), onclick: () => { at = i; draw(); }}, `${st.seat}:${st.card}`);
    if (m) sp.append(el("b", {class: markClass(m)}, m));
    row.append(sp);
  });
  plays.replaceChildren(...rows);
  graph();
}

// each seat's line on the graph of a three-player game
const SEAT_COLOURS = {S: "#1f5a38", E: "#1f4e8c", N: "#8e3b8e"};

// The graph of the values of the plays made. Two and four players: the
// value for S's side (the record's EvalView S or SN), the other side's
// plays with their sign turned. Three players (EvalView mover): each
// play's value is its mover's own points, plotted as they are, a line per
// seat.
function graph() {
  const svg = $("graph");
  const W = 520, H = 160, mid = H / 2, n = game.steps.length;
  const three = game.players === 3;
  $("graph-title").textContent = three
    ? "(the value of each play made for its mover: each seat's own points, a line per seat)"
    : "(the value of each play made, for S's side)";
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  const pts = [];
  let top = 2;
  for (let i = 0; i < n; i++) {
    const note = notes[i];
    if (!note || note.value === null || note.value === undefined) continue;
    const side = three ? 1 : game.players === 4 ? (["S", "N"].includes(note.seat) ? 1 : -1) : (note.seat === "S" ? 1 : -1);
    pts.push([i, side * note.value, note.mark, note.seat]);
    top = Math.max(top, Math.abs(note.value));
  }
  const x = i => 10 + (W - 20) * (n > 1 ? i / (n - 1) : 0);
  const y = v => mid - (H / 2 - 10) * v / top;
  let body = `<rect width="${W}" height="${H}" fill="#fff" stroke="#ccc"/><line x1="0" y1="${mid}" x2="${W}" y2="${mid}" stroke="#aaa"/>`;
  body += `<line x1="${x(at)}" y1="0" x2="${x(at)}" y2="${H}" stroke="#e07b00"/>`;
  const lines = three ? Object.keys(SEAT_COLOURS).map(s => [s, SEAT_COLOURS[s], pts.filter(p => p[3] === s)])
                      : [["", "#1f5a38", pts]];
  for (const [seat, colour, ps] of lines)
    if (ps.length) body += `<polyline data-seat="${seat}" fill="none" stroke="${colour}" stroke-width="1.5" points="${ps.map(p => `${x(p[0])},${y(p[1])}`).join(" ")}"/>`;
  for (const [i, v, m, seat] of pts) {
    const plain = three ? SEAT_COLOURS[seat] : "#1f5a38";
    const fill = m === "??" ? "#c0392b" : m === "?" ? "#c77700" : m === "?!" ? "#b8a200" : plain;
    body += `<circle data-i="${i}" data-seat="${seat}" data-v="${v}" cx="${x(i)}" cy="${y(v)}" r="${m ? 4 : 2.5}" fill="${fill}" style="cursor:pointer"><title>${game.steps[i].seat}:${game.steps[i].card} ${fmt(v)} ${m}</title></circle>`;
  }
  // the scale: two and four players, S's side is up
  body += `<text x="4" y="12" font-size="10">+${Math.round(top)}${three ? "" : " S"}</text><text x="4" y="${H - 4}" font-size="10">-${Math.round(top)}</text>`;
  if (three)
    Object.entries(SEAT_COLOURS).forEach(([s, c], k) => {
      body += `<text class="legend" data-seat="${s}" x="${W - 70 + 22 * k}" y="12" font-size="10" font-weight="bold" fill="${c}">${s}</text>`;
    });
  svg.innerHTML = body;
  svg.querySelectorAll("circle").forEach(c => c.addEventListener("click", () => { at = Number(c.dataset.i); draw(); }));
}

async function init() {
  await loadCards();
  mine = new URLSearchParams(location.search).get("mine");
  const names = (await api("/api/games")).games;
  $("shipped").append(...names.map(n => el("option", {value: n}, n)));
  $("shipped").onchange = () => { uploaded = null; $("upload").value = ""; };
  $("upload").onchange = async () => {
    const f = $("upload").files[0];
    uploaded = f ? await f.text() : null;
    if (f) $("shipped").value = "";
  };
  $("open").onclick = open;
  $("cancel").onclick = () => { if (job) api(`/api/jobs/${job.id}`, undefined, "DELETE"); };
  document.addEventListener("keydown", ev => {
    if (!game || ["INPUT", "SELECT"].includes(document.activeElement.tagName)) return;
    const n = game.steps.length;
    if (ev.key === "ArrowRight") at = Math.min(n - 1, at + 1);
    else if (ev.key === "ArrowLeft") at = Math.max(0, at - 1);
    else if (ev.key === "Home") at = 0;
    else if (ev.key === "End") at = n - 1;
    else return;
    ev.preventDefault();
    draw();
  });
  document.body.dataset.ready = "1";
  if (mine) {
    // the review of a game played on the play page: its record, annotated in the player's view
    for (const id of ["shipped", "upload", "gameno", "view", "samples", "luck"]) $(id).closest("label").hidden = true;
    $("open").hidden = true;
    $("title").textContent = "Review of a game you played (annotated in the player's view)";
    try {
      const r = await fetch(`/api/play/${mine}/record`);
      if (!r.ok) throw new Error((await r.json()).error);
      uploaded = await r.text();
    } catch (e) { showError($("error"), e.message); return; }
    $("back").href = `/play?game=${mine}`;
    $("back").hidden = false;
    open();
  }
}
init();
