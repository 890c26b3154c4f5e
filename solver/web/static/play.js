// The play page: set a game up, play it by clicking cards (or keys 1-4),
// ask for hints, open the review after each hand.
"use strict";
const $ = id => document.getElementById(id);
const SEATS = {2: ["S", "N"], 3: ["S", "E", "N"], 4: ["S", "E", "N", "W"]};
const RANKS = ["1", "2", "3", "4", "5", "6", "7", "10", "11", "12"];
let gid = null, doc = null, presets = {}, levels = [], busy = false, hint = null, showGone = false;

// --- setup ----------------------------------------------------------------

function seatChoices() {
  const n = Number($("players").value);
  const box = $("seats");
  const old = {};
  box.querySelectorAll("select").forEach(s => { old[s.dataset.seat] = s.value; });
  box.replaceChildren(...SEATS[n].map((s, i) => {
    const sel = el("select", {"data-seat": s},
      el("option", {value: "human"}, "a person"),
      ...levels.map(l => el("option", {value: String(l.number)}, `level ${l.number} (${l.name})`)));
    sel.value = old[s] || (i === 0 ? "human" : "3");
    return el("label", {}, `${s} `, sel);
  }));
}

function presetChanged() {
  const p = presets[$("preset").value];
  const was = $("players").value;
  $("players").replaceChildren(...p.players.map(n => el("option", {}, String(n))));
  if (p.players.map(String).includes(was)) $("players").value = was;
  $("target").value = p.target;
  seatChoices();
}

function rulesText() {
  const words = [$("preset").value];
  if ($("voleur").checked) words.push("voleur=yes");
  document.querySelectorAll("#variants [data-rule]").forEach(c => { if (c.checked) words.push(c.dataset.rule); });
  const more = $("more").value.trim();
  if (more) words.push(...more.split(/\s+/));
  return words.join(" ");
}

async function start() {
  showError($("setup-error"), "");
  const seats = [...$("seats").querySelectorAll("select")].map(s => s.value);
  const humans = seats.filter(s => s === "human").length;
  const name = $("name").value.trim() || "you";
  const body = {rules: rulesText(), players: Number($("players").value), seats,
                target: Number($("target").value) || null,
                names: Array(humans).fill(name)};
  if (humans > 1) body.names = seats.map((s, i) => [s, SEATS[body.players][i]]).filter(x => x[0] === "human").map(x => `${name} (${x[1]})`);
  if ($("seed").value.trim()) body.seed = $("seed").value.trim();
  try {
    const d = await api("/api/play/new", body);
    location.href = `/play?game=${d.id}`;
  } catch (e) { showError($("setup-error"), e.message); }
}

// --- the game -------------------------------------------------------------

function me() { return doc.state.you; }
function mySide() { return doc.state.your_side; }

function cardBox(text, cls) {
  const c = cardEl(text, cls);
  return c;
}

function render() {
  const s = doc.state;
  document.body.dataset.status = s.status;
  document.body.dataset.index = String(s.index);
  const who = Object.fromEntries(s.who.map(w => [w.seat, w]));
  // the other seats, in play order after mine
  const others = $("others");
  others.replaceChildren();
  const at = s.seats.indexOf(s.you);
  for (let k = 1; k < s.players; k++) {
    const seat = s.seats[(at + k) % s.players];
    const w = who[seat];
    const row = el("div", {class: "seat other" + (s.turn === seat ? " turn" : ""), "data-seat": seat});
    const partner = s.players === 4 && (at + k) % 2 === at % 2;
    row.append(el("span", {class: "seat-name"}, `${seat}${partner ? " (partner)" : ""}`,
      el("span", {class: "who"}, w.name)));
    const hand = el("span", {class: "hand"});
    for (const c of s.hands[seat]) hand.append(cardBox(c, c === "?" ? "back" : "declared"));
    if (!s.hands[seat].length) hand.append(el("span", {class: "note"}, "no cards"));
    row.append(hand);
    if (s.hands[seat].length) row.append(el("span", {class: "count"}, `${s.hands[seat].length} in hand`));
    others.append(row);
  }
  // the table
  const table = $("table");
  table.replaceChildren();
  let marked = false;
  for (const c of s.table) {
    const prev = !marked && s.prev && c === s.prev;
    if (prev) marked = true;
    table.append(cardBox(c, prev ? "prev" : ""));
  }
  if (!s.table.length) table.append(el("span", {class: "note"}, "empty table"));
  table.append(el("span", {class: "stock note"}, `stock ${s.stock}`));
  let show = "";
  if (s.show) {
    show = `On show: ${s.show.size} × ${s.show.rank}` + (s.show.seat ? `, hit by ${s.show.seat}` : "");
    if (s.show.answer_by) show += `. ${s.show.answer_by} can answer with a ${s.show.rank} for ${s.show.points} point${s.show.points === 1 ? "" : "s"}.`;
  }
  if (s.prev && !s.show) show = `${s.prev} was just laid: the next player takes it with a ${s.prev.replace(/[oceb]$/, "")} for a hit.`;
  $("showline").textContent = show;
  // my hand
  const mine = $("mine");
  mine.replaceChildren();
  const myTurn = s.status === "play" && s.turn === s.you;
  mine.append(el("span", {class: "seat-name"}, `${s.you}${myTurn ? " to play" : ""}`,
    el("span", {class: "who"}, who[s.you].name)));
  const hand = el("span", {class: "hand", id: "hand"});
  s.hands[s.you].forEach((c, i) => {
    const ce = cardBox(c, myTurn ? "clickable" : "");
    ce.dataset.key = String(i + 1);
    if (myTurn) ce.addEventListener("click", () => play(c));
    hand.append(ce);
  });
  if (!s.hands[s.you].length) hand.append(el("span", {class: "note"}, "no cards"));
  mine.append(hand);
  if (hint && hint.index === s.index && myTurn) badges(hand, hint.analysis, true);
  // status
  const st = $("status");
  const turnWho = s.turn ? who[s.turn] : null;
  const keys = s.hands[s.you].length > 1 ? `1-${s.hands[s.you].length}` : "1";
  const last = s.plays.length ? s.plays[s.plays.length - 1] : null;
  const heard = last && last.seat !== s.you ? `${last.seat} played ${last.card}: ${last.effect}. ` : "";
  if (s.status === "play") st.textContent = heard + (s.who.filter(w => w.human).length > 1
    ? `${s.turn} (${turnWho.name}) to play: click a card or press ${keys}`
    : `Your turn: click a card or press ${keys}`);
  else if (s.status === "engine") st.textContent = `${s.turn} (${turnWho.name}) is thinking…`;
  else if (s.status === "hand-over") st.textContent = handOverText(s);
  else st.textContent = overText(s);
  st.className = "status " + s.status;
  $("hint").disabled = !myTurn;
  $("nexthand").hidden = s.status !== "hand-over";
  const review = $("review");
  review.hidden = !(s.status === "hand-over" || s.status === "over");
  review.textContent = s.status === "over" ? "review the game" : "review this hand";
  review.href = `/game?mine=${gid}`;
  $("download").href = `/api/play/${gid}/record?download=1`;
  renderSide(s);
  renderGone(s);
}

function handOverText(s) {
  const r = s.results[s.results.length - 1];
  const pts = s.sides.map(x => `${x} +${r.points[x]}`).join(", ");
  return `Hand ${r.hand} is over: ${pts}. Score ${s.sides.map(x => s.score[x]).join("-")}.`;
}

function overText(s) {
  const score = s.sides.map(x => s.score[x]).join("-");
  if (!s.winner) return `The game is over: ${score}.`;
  return s.winner === s.your_side ? `You won the match, ${score}.` : `${s.winner} won the match, ${score}.`;
}

function renderSide(s) {
  const sc = $("score");
  sc.replaceChildren(el("tr", {}, el("th", {}, "side"), el("th", {}, "score"), el("th", {}, "this hand"), el("th", {}, "pile"),
                        ...(s.tops ? [el("th", {}, "top")] : [])),
    ...s.sides.map(x => el("tr", {class: x === s.your_side ? "yours" : ""},
      el("td", {}, x + (x === s.your_side ? " (you)" : "")), el("td", {}, s.score[x]), el("td", {}, s.points[x]),
      el("td", {}, s.piles[x]), ...(s.tops ? [el("td", {}, s.tops[x] || "-")] : []))));
  $("target-note").textContent = `(to ${s.target}${s.win_check === "end_of_hand" ? ", at the end of a hand" : ""})`;
  const e = doc.equity;
  $("equity").textContent = e.chance === null ? `Match-winning chance: ${e.note}.`
    : `Your chance of winning the match: ${percent(e.chance)} (${e.when}; ${e.note}).`;
  $("equity").dataset.chance = e.chance === null ? "" : String(e.chance);
  $("where").textContent = `Hand ${s.hand}, deal ${s.deal} of ${s.deals}; ${s.dealer} deals, ${s.leader} leads. Hints taken: ${s.hints}.`;
  const dp = s.declared_points;
  const got = dp ? s.sides.filter(x => dp[x]).map(x => `${x} +${dp[x]}`).join(", ") : "";
  $("declared").replaceChildren(...(s.declared.length ? s.declared.map(d =>
    el("div", {}, `${d.seat}: ${d.kind === "tringa" ? "a Tringa" : "a Ronda"} of ${d.rank}s`))
    : [el("div", {}, "none this deal")]), ...(got ? [el("div", {}, `scored: ${got}`)] : []));
  $("plays").replaceChildren(...(s.plays.length ? s.plays.map(p => el("div", {}, `${p.seat}: ${p.card} ${p.effect}`))
    : [el("div", {}, "no play yet")]));
  $("results").replaceChildren(...(s.results.length ? s.results.map(r => el("div", {},
    `hand ${r.hand}: ${s.sides.map(x => `${x} +${r.points[x]}`).join(", ")} → ${s.sides.map(x => r.score[x]).join("-")}`))
    : [el("div", {}, "none finished yet")]));
  $("rules-note").textContent = `Rules: ${s.rules}${s.voleur ? " (voleur: the top of each opponent pile counts as a table card)" : ""}.`;
}

function renderGone(s) {
  const t = $("gone");
  t.hidden = !showGone;
  if (!showGone) return;
  const count = (cards, r) => cards.filter(c => c.replace(/[oceb]$/, "") === r).length;
  const mine = s.hands[s.you], table = s.table;
  const rows = [["rank", r => r], ["gone", r => s.gone[r]], ["table", r => count(table, r)],
                ["your hand", r => count(mine, r)],
                ["unseen", r => 4 - s.gone[r] - count(table, r) - count(mine, r)
                  - s.seats.filter(x => x !== s.you).reduce((n, x) => n + count(s.hands[x].filter(c => c !== "?"), r), 0)]];
  t.replaceChildren(...rows.map(([name, f]) => el("tr", {"data-row": name}, el("th", {}, name),
    ...RANKS.map(r => el("td", {}, f(r))))));
}

// Value badges on the cards of a hand from an analysis document (one a
// card, by its card text or rank); with best, the best play highlighted.
function badges(hand, a, best) {
  const byCard = {};
  for (const m of a.moves) byCard[m.move] = m;
  hand.querySelectorAll("span.card").forEach(ce => {
    const c = ce.dataset.card;
    const m = byCard[c] || a.moves.find(x => x.move.replace(/[oceb]$/, "") === c.replace(/[oceb]$/, ""));
    if (!m) return;
    addBadge(ce, m.value, m.stderr, a.best.includes(m.move), best);
  });
}

async function play(card) {
  if (busy || !doc || doc.state.status !== "play") return;
  busy = true;
  showError($("error"), "");
  try {
    doc = await api(`/api/play/${gid}/move`, {card, seat: doc.state.you});
    hint = null;
    render();
  } catch (e) { showError($("error"), e.message); }
  busy = false;
  engine();
}

async function engine() {
  while (doc && doc.state.status === "engine" && !busy) {
    busy = true;
    try {
      await new Promise(r => setTimeout(r, 120));
      const next = await api(`/api/play/${gid}/advance`, {});
      doc = next;
      render();
      if (next.played && next.played.note) showError($("error"), next.played.note);
    } catch (e) {
      showError($("error"), e.message);
      busy = false;
      await new Promise(r => setTimeout(r, 2000));
      continue;
    }
    busy = false;
  }
  document.body.dataset.idle = "1";
}

async function askHint() {
  if (busy || doc.state.status !== "play") return;
  busy = true;
  showError($("error"), "");
  $("status").textContent = "the engine looks at your hand…";
  try {
    const d = await api(`/api/play/${gid}/hint`, {});
    doc = d;
    hint = {index: d.state.index, analysis: d.analysis};
    render();
    const best = d.analysis.best.join(" or ");
    $("status").textContent = `Hint: ${best} (${d.analysis.method}). Each card shows what it is worth to the end of the hand.`;
    document.body.dataset.hint = d.analysis.best.join(" ");
  } catch (e) { showError($("error"), e.message); render(); }
  busy = false;
}

async function nextHand() {
  try {
    doc = await api(`/api/play/${gid}/next`, {});
    hint = null;
    render();
    engine();
  } catch (e) { showError($("error"), e.message); }
}

async function init() {
  await loadCards();
  gid = new URLSearchParams(location.search).get("game");
  levels = (await api("/api/play/levels")).levels;
  $("levels").tBodies[0].replaceChildren(...levels.map(l => el("tr", {},
    el("td", {}, `${l.number} ${l.name}`), el("td", {class: "effect"}, l.about))));
  if (!gid) {
    presets = (await api("/api/rules")).presets;
    $("preset").replaceChildren(...Object.keys(presets).map(n => el("option", {}, n)));
    $("preset").onchange = presetChanged;
    $("players").onchange = seatChoices;
    $("start").onclick = start;
    presetChanged();
    $("setup").hidden = false;
    document.body.dataset.ready = "1";
    return;
  }
  try {
    doc = await api(`/api/play/${gid}`);
  } catch (e) {
    $("game").hidden = false;
    for (const id of ["others", "table", "mine", "status", "hint", "gone-toggle"]) $(id).hidden = true;
    showError($("error"), e.message);
    document.body.dataset.ready = "1";
    return;
  }
  $("game").hidden = false;
  $("side").hidden = false;
  $("hint").onclick = askHint;
  $("nexthand").onclick = nextHand;
  $("gone-toggle").onclick = () => { showGone = !showGone; renderGone(doc.state); };
  document.addEventListener("keydown", ev => {
    if (["INPUT", "SELECT"].includes(document.activeElement.tagName) || !doc) return;
    if (/^[1-9]$/.test(ev.key)) {
      const c = document.querySelector(`#hand .card[data-key='${ev.key}']`);
      if (c && doc.state.status === "play") play(c.dataset.card);
    } else if (ev.key === "h" || ev.key === "H") askHint();
    else if (ev.key === "g" || ev.key === "G") { showGone = !showGone; renderGone(doc.state); }
    else return;
    ev.preventDefault();
  });
  render();
  document.body.dataset.ready = "1";
  engine();
}
init();
