// Shared by the three pages: the API, the card drawings, the board.
"use strict";

async function api(path, body, method) {
  const opts = {method: method || (body === undefined ? "GET" : "POST"), headers: {}};
  if (body !== undefined) {
    opts.headers["content-type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const r = await fetch(path, opts);
  let doc;
  try { doc = await r.json(); } catch (e) { doc = {error: `${r.status} ${r.statusText}`}; }
  if (!r.ok) throw new Error(doc.error || `${r.status} ${r.statusText}`);
  return doc;
}

let CARDS = null;
async function loadCards() {
  if (!CARDS) CARDS = (await api("/api/cards")).cards;
  return CARDS;
}

// One card: its SVG (the puzzle sheet's drawing) in a span carrying data-card.
function cardEl(text, cls) {
  const span = document.createElement("span");
  span.className = "card" + (cls ? " " + cls : "");
  span.dataset.card = text;
  span.innerHTML = CARDS[text] || CARDS[text.replace(/[oceb]$/, "")] || CARDS["?"];
  return span;
}

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k instanceof Node ? k : document.createTextNode(String(k)));
  return e;
}

// A board from the mover's side: the other hands at the top, the table,
// the mover's hand at the bottom (opts.onCard makes its cards clickable),
// then the facts.
function renderBoard(box, b, opts) {
  opts = opts || {};
  box.replaceChildren();
  const turn = b.seats.indexOf(b.turn);
  const others = [];
  for (let k = b.players - 1; k >= 1; k--) others.push((turn + k) % b.players);
  const row = (seat, mover) => {
    const r = el("div", {class: "seat" + (mover ? " mover" : ""), "data-seat": b.seats[seat]});
    r.append(el("span", {class: "seat-name"}, b.seats[seat] + (mover ? " to play" : "")));
    const cards = el("span", {class: "hand"});
    for (const c of b.hands[seat]) {
      const ce = cardEl(c, mover ? "" : "faint");
      if (mover && opts.onCard) {
        ce.classList.add("clickable");
        ce.addEventListener("click", () => opts.onCard(c));
      }
      cards.append(ce);
    }
    if (!b.hands[seat].length) cards.append(el("span", {class: "note"}, "no cards left"));
    r.append(cards);
    return r;
  };
  for (const s of others) box.append(row(s, false));
  const table = el("div", {class: "table-area"});
  let marked = false;
  for (const c of b.table) {
    const prev = !marked && b.prev && (c === b.prev || c.replace(/[oceb]$/, "") === b.prev.replace(/[oceb]$/, ""));
    if (prev) marked = true;
    table.append(cardEl(c, prev ? "prev" : ""));
  }
  if (!b.table.length) table.append(el("span", {class: "note"}, "empty table"));
  if (b.show) table.append(el("span", {class: "note"}, `on show: ${b.show.size} × ${b.show.rank} (${b.show.seat})`));
  if (b.tops) {
    // Ronda voleur: each side's pile, its top card face up (it counts as a table card)
    for (const [side, top] of Object.entries(b.tops)) {
      const pile = el("span", {class: "pile", "data-side": side}, el("span", {class: "note"}, `${side}'s pile (${b.piles[side]})`));
      if (top) pile.append(cardEl(top, "top"));
      table.append(pile);
    }
  }
  box.append(table);
  box.append(row(turn, !b.over));     // the hand's end: nobody is to play
  for (const f of b.facts) box.append(el("div", {class: "facts"}, f));
}

function fmt(v) {
  if (v === null || v === undefined) return "";
  const s = (Math.round(v * 100) / 100).toString();
  return v > 0 ? "+" + s : s;
}

function showError(box, message) {
  box.textContent = message || "";
  box.hidden = !message;
}

// Poll a job until it ends; onProgress(job) on each poll.
async function pollJob(id, onProgress) {
  for (;;) {
    const job = await api(`/api/jobs/${id}`);
    if (onProgress) onProgress(job);
    if (!["queued", "running"].includes(job.state)) return job;
    await new Promise(r => setTimeout(r, 250));
  }
}

// A value badge on a card (the board speaks in cards): the play's value in
// points to the end of the hand, with its ± (standard error) when
// estimated; isBest marks a best play, highlight outlines its card.
function addBadge(ce, value, stderr, isBest, highlight) {
  ce.querySelectorAll(".badge").forEach(b => b.remove());
  let text = fmt(value);
  if (stderr) text += "±" + (Math.round(stderr * 10) / 10);
  ce.classList.add("badged");
  ce.classList.toggle("hinted", Boolean(highlight && isBest));
  ce.dataset.value = String(value);
  ce.title = `${ce.dataset.card}: ${fmt(value)}${stderr ? " ± " + stderr.toFixed(2) : ""} points to the end of the hand`
    + (isBest ? " (best)" : "");
  ce.append(el("span", {class: "badge" + (isBest ? " best" : "")}, text));
}
