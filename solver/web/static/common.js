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

// Numbers as the command line prints them: the rules of solver/numbers.py
// (and of the CLI's tables, solver/cli/render.py), which are the reference;
// tests/test_web_browser.py checks these against the Python ones.

// format(x, ".Nf") as Python writes it: correctly rounded, an exact tie to
// the even digit (toFixed takes the larger one: 0.125 -> 0.13, not 0.12).
function fixed(x, d) {
  if (x < 0) return "-" + fixed(-x, d);
  const s = x.toFixed(d);
  const full = x.toFixed(100);              // x's decimal expansion
  const cut = full.indexOf(".") + 1 + d;
  if (!/^50*$/.test(full.slice(cut))) return s;
  const down = full.slice(0, d ? cut : cut - 1);
  return "02468".includes(down[down.length - 1]) ? down : s;
}

// format(x, "g") as Python writes it (six significant digits, no trailing
// zeros): 5, 2.5, 0.333333.
function general(x) {
  if (x < 0) return "-" + general(-x);
  if (x === 0) return "0";
  const strip = t => t.includes(".") ? t.replace(/0+$/, "").replace(/\.$/, "") : t;
  const [m, e] = x.toExponential(5).split("e");
  const exp = Number(e);
  if (exp >= -4 && exp < 6) return strip(fixed(x, 5 - exp));
  return strip(m) + "e" + (exp < 0 ? "-" : "+") + String(Math.abs(exp)).padStart(2, "0");
}

// signed(x, spec): x by spec ("g", or ".2f" and the like) with its sign
// (+5, -2.5), except a zero, which has none (0, 0.00), also when x only
// rounds to zero.
function signed(x, spec) {
  const d = /^\.(\d+)f$/.exec(spec || "g");
  const body = d ? fixed(Math.abs(x), Number(d[1])) : general(Math.abs(x));
  if (/^[0.]*$/.test(body)) return body;
  return (x < 0 ? "-" : "+") + body;
}

// A value in points to two decimals at most, signed (+4, -2.5, +0.33, 0);
// "" for none.
function fmt(v) {
  if (v === null || v === undefined) return "";
  return signed(Number(fixed(v, 2)));
}

// The CLI's value column (_points): exact half-points in full (+4, -2.5,
// 0), any other value to two decimals unless whole (-2.64); unsigned when
// not sign (a loss).
function points(x, method, sign) {
  if (Math.abs(x - Math.round(x)) < 1e-9) x = Math.round(x) + 0;   // a float's noise is the whole value
  const spec = method === "exact" || x === Math.round(x) ? "g" : ".2f";
  if (sign === false) return spec === "g" ? general(x) : fixed(x, 2);
  return signed(x, spec);
}

// The points best - value as printed beside both at two decimals
// (numbers.points_gap): the printed values' difference, "<0.01" when they
// print alike but differ, "" when there is no gap.
function hundredths(x) { return Math.round(Number(fixed(x, 2)) * 100); }
function pointsGap(best, value) {
  if (best - value <= 1e-9) return "";
  const shown = hundredths(best) - hundredths(value);
  return shown <= 0 ? "<0.01" : fixed(shown / 100, 2);
}

// The CLI's loss column (render._loss): exact half-points in full, else
// the printed values' difference (whole points without decimals), never
// 0.01 between two values printed alike ("<0.01"; nothing when sampled).
function lossText(best, value, method, sampled) {
  if (best - value <= 1e-9) return "";
  if (method === "exact") return points(best - value, method, false);
  const gap = pointsGap(best, value);
  if (gap === "<0.01") return sampled ? "" : gap;
  return gap.endsWith(".00") && !sampled ? gap.slice(0, -3) : gap;
}

// The CLI's seat columns (three players: each seat's own points,
// unsigned): whole numbers as they are, else two decimals.
function seatPoints(x, sampled) {
  if (x === null || x === undefined) return "";
  return sampled || x !== Math.trunc(x) ? fixed(x, 2) : general(x);
}

// A probability in tenths of a percent, as a chance shown to one decimal
// reads (0.5456 -> 546).
function tenths(p) { return Math.round(Number(fixed(100 * p, 1)) * 10); }

// A chance to one decimal; "<0.1%" and ">99.9%" near 0 and 1 (but not at
// them), so that a chance that decides the play never reads 0.0% or
// 100.0%; "" for none.
function percent(p) {
  if (p === null || p === undefined) return "";
  if (0 < p && p < 0.0005) return "<0.1%";
  if (0.9995 <= p && p < 1) return ">99.9%";
  return fixed(tenths(p) / 10, 1) + "%";
}

// whole - part as printed beside percent() of both: the printed whole less
// the printed part (so they add up as read); "<0.1%" when the two print
// alike but differ, ">99.9%" for a gap under 1 that reads 100%; "" when
// there is no gap.
function percentGap(whole, part) {
  if (whole - part <= 1e-12) return "";
  const shown = tenths(whole) - tenths(part);
  if (shown <= 0) return "<0.1%";
  if (shown >= 1000 && whole - part < 1) return ">99.9%";
  return fixed(shown / 10, 1) + "%";
}

// A chance as the puzzle commands print it (chance_text): 100%, 61.6%.
function chanceText(p) {
  if (p === null || p === undefined) return "?";
  return fixed(100 * p, 1).replace(/0+$/, "").replace(/\.$/, "") + "%";
}

// chance_gap_text: percentGap with whole percents without their ".0".
function chanceGapText(whole, part) {
  const t = percentGap(whole, part);
  return t.endsWith(".0%") ? t.slice(0, -3) + "%" : t;
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
