// The analysis board: build a position by clicking, analyse it, make plays.
"use strict";

const SEATS = {2: ["S", "N"], 3: ["S", "E", "N"], 4: ["S", "E", "N", "W"]};
const RANKS = [1, 2, 3, 4, 5, 6, 7, 10, 11, 12];
const SUITS = ["o", "c", "e", "b"];
const $ = id => document.getElementById(id);

const SIDES = {2: ["S", "N"], 3: ["S", "E", "N"], 4: ["SN", "EW"]};
const state = {players: 2, zones: {table: [], stock: [], S: [], N: []}, target: "table",
               turn: "S", rules: "lmodire", stockKind: "known", extra: "",
               scores: ["", ""], matchTarget: "", over: null};
let PRESETS = {};
let job = null, pvSteps = [], pvAt = 0, pvRest = [], lastDoc = null;
// counts the positions shown: an answer (or its principal variation) that
// arrives after the position changed belongs to the old one, and is dropped
let epoch = 0;

function zoneNames() { return ["table", ...SEATS[state.players], "stock"]; }

function line() {
  const list = cs => cs.length ? cs.join(".") : "-";
  const z = state.zones;
  let stock = list(z.stock);
  if (state.stockKind === "shuffled") stock = "~" + stock;
  if (state.stockKind === "unknown") stock = "?";
  let text = `${list(z.table)} ${SEATS[state.players].map(s => list(z[s])).join("/")} ${stock} ${state.turn}`;
  if (state.rules !== "lmodire") text += ` rules=${state.rules}`;
  if (state.scores.some(v => String(v).trim() !== ""))
    text += ` score=${state.scores.map(v => Number(v) || 0).join(",")}`;
  const preset = PRESETS[state.rules];
  if (String(state.matchTarget).trim() !== "" && (!preset || Number(state.matchTarget) !== preset.target))
    text += ` target=${Number(state.matchTarget)}`;
  if (state.extra.trim()) text += " " + state.extra.trim();
  return text;
}

// The score fields, one per side (empty: no score written).
function drawScores() {
  const box = $("scores");
  box.replaceChildren();
  SIDES[state.players].forEach((side, i) => {
    const input = el("input", {type: "number", min: "0", style: "width:4em", "data-side": side,
                               placeholder: "0", title: `${side}'s match points`});
    input.value = state.scores[i] === undefined ? "" : state.scores[i];
    input.addEventListener("input", () => { state.scores[i] = input.value; $("line").value = line(); clearAnswer(); });
    box.append(el("span", {class: "small"}, side + " "), input, " ");
  });
  const preset = PRESETS[state.rules];
  $("target").placeholder = preset ? String(preset.target) : "";
  $("target").value = state.matchTarget;
}

function used() {
  const u = new Set();
  for (const cs of Object.values(state.zones)) for (const c of cs) if (c !== "?") u.add(c);
  return u;
}

function draw() {
  const zones = $("zones");
  zones.replaceChildren();
  for (const name of zoneNames()) {
    if (name === "stock" && state.stockKind === "unknown") continue;
    const z = el("div", {class: "zone" + (state.target === name ? " target" : ""), "data-zone": name,
                         onclick: () => { state.target = name; draw(); }});
    // the hand's end: nobody is to play, no seat is marked
    const mover = name === state.turn && !state.over;
    const label = name === "table" ? "table" : name === "stock" ? "stock" : name + (mover ? " ←" : "");
    z.append(el("span", {class: "label"}, label));
    if (name === "table") z.classList.add("table-area");
    for (const [i, c] of state.zones[name].entries()) {
      const ce = cardEl(c, "clickable");
      ce.addEventListener("click", ev => { ev.stopPropagation(); state.zones[name].splice(i, 1); changed(); });
      z.append(ce);
    }
    zones.append(z);
  }
  const pal = $("palette");
  pal.replaceChildren();
  const u = used();
  for (const s of SUITS) {
    const row = el("div", {});
    for (const r of RANKS) {
      const c = `${r}${s}`;
      const ce = cardEl(c, u.has(c) ? "used" : "");
      ce.addEventListener("click", () => { if (!used().has(c)) { state.zones[state.target].push(c); changed(); } });
      row.append(ce);
    }
    if (s === "b") {
      const q = cardEl("?", "");
      q.title = "an unknown card (in a hand)";
      q.addEventListener("click", () => { if (SEATS[state.players].includes(state.target)) { state.zones[state.target].push("?"); changed(); } });
      row.append(q);
    }
    pal.append(row);
  }
  if (state.over) {
    $("turn").replaceChildren(el("option", {value: ""}, `nobody: the ${overWhat(state.over)} is over`));
    $("turn").value = "";
  } else {
    $("turn").replaceChildren(...SEATS[state.players].map(s => el("option", {}, s)));
    $("turn").value = state.turn;
  }
  $("turn").disabled = !!state.over;
  drawScores();
  drawOver();
}

// What a board of the end (b.over) ends: the hand (its last card played)
// or, won mid-hand (win_check immediate), the match.
function overWhat(b) {
  return b.hands.every(h => !h.length) && !b.stock.count ? "hand" : "match";
}

// The hand is over (its last card played on the board): the final score
// and who leads (or has won the match) in place of a mover; no analysis,
// since no play is left (the server says the same of the end's line).
function drawOver() {
  const b = state.over;
  $("over").hidden = !b;
  $("analyse").disabled = !!b;
  $("analyse").title = b ? `the ${overWhat(b)} is over: there is no play to analyse` : "";
  if (!b) { $("over").textContent = ""; return; }
  const score = b.sides.map(s => `${s} ${b.score[s]}`).join(", ");
  const who = b.match_winner ? `${b.match_winner} wins the match (target ${b.target})`
            : b.ahead ? `${b.ahead} ahead by ${b.by}` : "the sides are level";
  $("over").textContent = (overWhat(b) === "hand" ? `The hand is over: final score ${score}`
                                                 : `The match is over: score ${score}`) +
    ` · ${who}. Nothing is left to analyse: edit the cards or read another line.`;
}

function changed() {
  clearAnswer();
  state.over = null;
  drawHiddenPlay(null);
  $("line").value = line();
  draw();
}

function setPlayers(n) {
  if (state.players !== n) state.scores = SIDES[n].map(() => "");
  state.players = n;
  for (const s of SEATS[n]) state.zones[s] = state.zones[s] || [];
  for (const s of ["E", "W"]) if (!SEATS[n].includes(s)) delete state.zones[s];
  if (!SEATS[n].includes(state.turn)) state.turn = "S";
  if (!SEATS[n].includes(state.target) && !["table", "stock"].includes(state.target)) state.target = "table";
}

// Fill the board from a board document of the server (a line read back;
// the hand's end: b.over, nobody to play).
// The mover's hand is hidden (a player's view, past the other side's
// play): the board asks which card it played, from the ranks it may hold.
function drawHiddenPlay(b) {
  const box = $("hidden-play");
  box.replaceChildren();
  box.hidden = !(b && b.playable);
  if (box.hidden) return;
  box.append(el("span", {}, `${b.turn}'s hand is hidden: which card does ${b.turn} play? `),
             ...b.playable.map(r => el("button", {class: "rank", "data-rank": String(r),
                                                   title: `${b.turn} plays a ${r}`,
                                                   onclick: () => makePlay(String(r))}, String(r))));
}

function fromBoard(b) {
  clearAnswer();
  state.over = b.over ? b : null;
  drawHiddenPlay(b);
  setPlayers(b.players);
  $("players").value = String(b.players);
  state.zones = {table: [...b.table], stock: [...b.stock.cards]};
  b.seats.forEach((s, i) => { state.zones[s] = [...b.hands[i]]; });
  state.turn = b.turn;
  state.rules = b.rules;
  $("rules").value = b.rules;
  state.stockKind = b.stock.kind;
  $("stockkind").value = b.stock.kind;
  const words = b.line.split(" ");
  state.extra = words.slice(4).filter(w => !/^(rules|score|target)=/.test(w)).join(" ");
  state.scores = b.sides.map(side => b.score_written ? String(b.score[side]) : "");
  const preset = PRESETS[b.rules];
  state.matchTarget = preset && b.target === preset.target ? "" : String(b.target);
  $("extra").value = state.extra;
  $("line").value = b.line;
  draw();
}

// the line being read (load): an analysis asked for meanwhile waits for it,
// so that it analyses the position read, and its answer is not taken for
// an old position's when the read one is shown
let reading = null;

async function readLine(text) {
  const p = readLineNow(text);
  reading = p;
  try { return await p; } finally { if (reading === p) reading = null; }
}

async function readLineNow(text) {
  showError($("error"), "");
  try {
    const doc = await api("/api/position", {line: text});
    fromBoard(doc.board);
    return true;
  } catch (e) { showError($("error"), e.message); return false; }
}

async function analyse() {
  if (reading && !(await reading)) return;     // the line read was refused: its error shows
  showError($("error"), "");
  clearAnswer();
  const mine = epoch;
  const text = $("line").value;
  try {
    job = await api("/api/jobs/analyse", {line: text, method: $("method").value,
                                           objective: $("objective").value,
                                           time: Number($("time").value) || 10,
                                           search: $("search").value});
  } catch (e) { showError($("error"), e.message); return; }
  $("cancel").hidden = false;
  const done = await pollJob(job.id, j => {
    const p = j.progress || {};
    let s = `${j.state}`;
    if (j.elapsed !== null) s += ` ${j.elapsed.toFixed(1)} s of ${j.limit} s`;
    if (p.samples) s += ` · ${p.samples}/${p.of} samples, best so far ${p.best}` + (p.lead_z ? ` (lead ${p.lead_z} s.e.)` : "");
    $("status").textContent = s;
  });
  $("cancel").hidden = true;
  job = null;
  if (mine !== epoch) return;        // the position changed meanwhile
  if (done.state !== "done") { $("status").textContent = done.state; showError($("error"), done.error); return; }
  const doc = done.result;
  if (doc.errors.length) { $("status").textContent = ""; showError($("error"), doc.errors[0].error); return; }
  $("status").textContent = "";
  show(doc.positions[0]);
}

function show(a) {
  lastDoc = a;
  const match = a.objective === "match";
  document.querySelectorAll("#moves th.chance").forEach(th => { th.hidden = !match; });
  const body = $("moves").tBodies[0];
  body.replaceChildren();
  // three players: a value column per seat (each seat's own points)
  const seats = a.values ? SEATS[a.values.length] : [];
  const headRow = $("moves").tHead.rows[0];
  headRow.querySelectorAll("th.seat-value").forEach(th => th.remove());
  headRow.querySelector("th.value").after(...seats.map(s => el("th", {class: "seat-value",
    title: `${s}'s own points, to the end of the hand`}, s)));
  $("vector-note").hidden = !a.values;
  // the numbers as the command line's table prints them (solver/cli/render.py)
  const sampled = a.stderr !== null || a.method === "determinised";
  // the deal search's plays within its points error ("close"; best is the
  // match's under the match objective)
  const close = a.close || (a.method === "deal" ? a.best : []);
  const loss = m => close.includes(m.move) && m.loss > 1e-9 ? "close"
    : lossText(a.value, m.value, a.method, sampled);
  // a sampled chance of winning the match: its standard error, as the CLI's "± %"
  const chanceSe = match && a.chance_stderr !== null && a.chance_stderr !== undefined;
  document.querySelectorAll("#moves th.chance-se").forEach(th => { th.hidden = !chanceSe; });
  for (const m of a.moves) {
    const cells = [el("td", {class: "move"}, m.move)];
    if (match) cells.push(el("td", {class: "chance"}, percent(m.chance)));
    if (chanceSe) cells.push(el("td", {class: "chance-se"}, percent(m.chance_stderr)));
    if (match) cells.push(el("td", {class: "lost"}, percentGap(a.chance || 0, m.chance || 0)));
    cells.push(el("td", {class: "value"}, sampled ? signed(m.value, ".2f") : points(m.value, a.method)),
      ...seats.map((s, i) => el("td", {class: "seat-value", "data-seat": s}, seatPoints((m.values || [])[i], sampled))),
      el("td", {class: "loss"}, loss(m)),
      el("td", {class: "stderr"}, m.stderr === null ? "" : fixed(m.stderr, 2)),
      el("td", {class: "effect"}, m.effect));
    const tr = el("tr", {class: "play" + (a.best.includes(m.move) ? " best" : ""), "data-move": m.move,
                         title: "make this play", onclick: () => makePlay(m.move)}, ...cells);
    body.append(tr);
  }
  let answer = `best ${a.best.join(", ")}`;
  if (match) answer += ` · ${percent(a.chance)} to win the match`;
  else answer += " · value " + (a.stderr !== null ? `${signed(a.value, ".2f")} ± ${fixed(a.stderr, 2)}`
                                                  : points(a.value, a.method)) + " points";
  $("answer").textContent = answer;
  $("objective-note").textContent = a.objective_note;
  $("summary").textContent = a.summary;
  $("summary").dataset.method = a.method;
  $("note").textContent = `${a.method}: ${a.note}; ${a.nodes.toLocaleString()} nodes, ${a.seconds.toFixed(3)} s`;
  badgeHand(a);
  loadPv(a);
}

// The board speaks in cards: each card of the mover's hand carries its
// play's value (with its ± when sampled), the best plays in green.
function badgeHand(a) {
  const byRank = {};
  for (const m of a.moves) byRank[m.move.replace(/[oceb]$/, "")] = m;
  document.querySelectorAll(`#zones [data-zone='${state.turn}'] span.card`).forEach(ce => {
    const m = byRank[ce.dataset.card.replace(/[oceb]$/, "")];
    if (m) addBadge(ce, m.value, m.stderr, a.best.includes(m.move), false);
  });
}

async function loadPv(a) {
  const mine = epoch;
  pvSteps = [{move: null, board: null, line: a.position}];
  pvRest = [];
  pvAt = 0;
  $("pvnote").textContent = "";
  const start = await api("/api/position", {line: a.position});
  if (mine !== epoch) return;
  pvSteps[0].board = start.board;
  if (a.pv && a.pv.length) {
    const doc = await api("/api/play", {line: a.position, moves: a.pv.map(p => p.move)});
    if (mine !== epoch) return;
    pvSteps.push(...doc.plays);
    pvRest = a.pv.slice(doc.plays.length).map(p => `${p.seat}:${p.move}`);
    const end = doc.plays.length ? doc.plays[doc.plays.length - 1].over : null;
    // a match won mid-hand (win_check immediate) ends the board's line
    // where the points objective's line goes on: the win is the note
    if (end) $("pvnote").textContent = end;
    else if (doc.stopped) $("pvnote").textContent = `the line goes on: ${doc.stopped.replace(/^play: /, "")}`;
  }
  drawPv();
}

function drawPv() {
  const pv = $("pv");
  pv.replaceChildren();
  pvSteps.forEach((s, i) => {
    if (!i) return;
    pv.append(el("span", {class: "ply" + (i === pvAt ? " here" : ""), onclick: () => { pvAt = i; drawPv(); }},
                 `${s.seat}:${s.move}`));
  });
  for (const r of pvRest) pv.append(el("span", {class: "ply rest", title: "beyond what the board can play"}, r));
  const s = pvSteps[pvAt];
  if (s && s.board) renderBoard($("pvboard"), s.board);
}

async function makePlay(move) {
  try {
    const doc = await api("/api/play", {line: $("line").value, moves: [move]});
    if (!doc.plays.length) { showError($("error"), doc.stopped); return; }
    fromBoard(doc.plays[0].board);
    if (doc.plays[0].over) { handOver(doc.plays[0]); return; }
    if (doc.plays[0].board.playable) { clearAnswer(); return; }  // asked above the table
    analyse();
  } catch (e) { showError($("error"), e.message); }
}

// The last analysis's results, cleared (the board moved on, the position
// was changed, or a new analysis starts): the plays, the answer, the
// notes, the principal variation and its board, the hand's badges.
function clearAnswer() {
  epoch++;
  lastDoc = null;
  pvSteps = [];
  pvRest = [];
  pvAt = 0;
  $("moves").tBodies[0].replaceChildren();
  $("moves").tHead.rows[0].querySelectorAll("th.seat-value").forEach(th => th.remove());
  document.querySelectorAll("#moves th.chance, #moves th.chance-se").forEach(th => { th.hidden = true; });
  $("vector-note").hidden = true;
  document.querySelectorAll("#zones span.card .badge").forEach(b => b.remove());
  document.querySelectorAll("#zones span.card.badged").forEach(ce => ce.classList.remove("badged", "hinted"));
  $("summary").textContent = "";
  delete $("summary").dataset.method;
  $("objective-note").textContent = "";
  $("note").textContent = "";
  $("answer").textContent = "";
  $("pv").replaceChildren();
  $("pvboard").replaceChildren();
  $("pvnote").textContent = "";
}

// The hand's last card was played: no position is left to analyse; the
// board shows the hand's end and the final score.
function handOver(p) {
  clearAnswer();
  $("answer").textContent = `${p.seat}:${p.move} ${p.effect} · ${p.over}`;
}

async function init() {
  await loadCards();
  const presets = (await api("/api/rules")).presets;
  PRESETS = presets;
  $("rules").replaceChildren(...Object.keys(presets).map(n => el("option", {}, n)));
  $("target").oninput = () => { state.matchTarget = $("target").value; $("line").value = line(); clearAnswer(); };
  $("rules").onchange = () => { state.rules = $("rules").value; changed(); };
  $("players").onchange = () => { setPlayers(Number($("players").value)); changed(); };
  $("turn").onchange = () => { state.turn = $("turn").value; changed(); };
  $("stockkind").onchange = () => { state.stockKind = $("stockkind").value; changed(); };
  $("extra").oninput = () => { state.extra = $("extra").value; $("line").value = line(); clearAnswer(); };
  $("clear").onclick = () => { for (const k of Object.keys(state.zones)) state.zones[k] = []; state.extra = ""; $("extra").value = "";
                               state.scores = SIDES[state.players].map(() => ""); state.matchTarget = ""; changed(); };
  $("load").onclick = () => readLine($("line").value);
  // a line typed over the hand's end is a new position: it may be analysed
  $("line").addEventListener("input", () => { clearAnswer(); if (state.over) { state.over = null; draw(); } });
  $("line").addEventListener("keydown", ev => { if (ev.key === "Enter") readLine($("line").value).then(ok => ok && analyse()); });
  $("analyse").onclick = analyse;
  $("cancel").onclick = () => { if (job) api(`/api/jobs/${job.id}`, undefined, "DELETE"); };
  $("pv-back").onclick = () => { if (pvAt > 0) { pvAt--; drawPv(); } };
  $("pv-fwd").onclick = () => { if (pvAt < pvSteps.length - 1) { pvAt++; drawPv(); } };
  const given = new URLSearchParams(location.search).get("line");
  if (given) { if (await readLine(given)) analyse(); } else changed();
  document.body.dataset.ready = "1";
}
init();
