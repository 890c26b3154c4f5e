// The puzzle trainer: a set, one puzzle at a time, answered by clicking.
"use strict";
const $ = id => document.getElementById(id);
let puzzles = [], at = 0, right = 0, asked = 0, answered = false, hints = 0;

async function openSet(source) {
  showError($("error"), "");
  try {
    const doc = await api("/api/puzzles/open", source);
    if (!doc.puzzles.length) { showError($("error"), doc.errors[0] || "no puzzle"); return; }
    if (doc.errors.length) showError($("error"), doc.errors[0]);
    puzzles = doc.puzzles;
    at = 0;
    show();
  } catch (e) { showError($("error"), e.message); }
}

function show() {
  const p = puzzles[at];
  answered = false;
  hints = 0;
  $("hints").textContent = "";
  $("verdict").textContent = "";
  $("verdict").className = "";
  $("explanation").textContent = "";
  $("line").textContent = "";
  $("values").tBodies[0].replaceChildren();
  const level = p.level ? ` · level ${p.level}` : "";
  $("title").textContent = `puzzle ${at + 1} of ${puzzles.length}${level} · ${p.board.turn} to play`;
  renderBoard($("board"), p.board, {onCard: answer});
}

async function answer(card) {
  if (answered) return;
  const p = puzzles[at];
  let doc;
  try { doc = await api("/api/puzzles/answer", {line: p.line, card}); }
  catch (e) { showError($("error"), e.message); return; }
  answered = true;
  asked += 1;
  if (doc.right) right += 1;
  $("score").textContent = `${right} of ${asked}`;
  $("verdict").textContent = doc.right ? `right: ${doc.best}` + (hints ? " (with a hint)" : "")
                                       : `not ${doc.card}: the answer is ${doc.best}`;
  if (doc.objective === "match") {   // judged by the chance of winning the match
    const best = doc.moves.find(m => m.best);
    $("verdict").textContent = `${doc.objective_note}: ` + $("verdict").textContent
      + (best ? ` (${chanceText(best.chance)} to win the match)` : "");
  }
  $("verdict").className = doc.right ? "right" : "wrong";
  // a line the engine cannot value (a '?' hand or stock) is judged by its
  // bm, and the warning says so; its played_line and explanation are empty
  const parts = [doc.warning ? `warning: ${doc.warning}.` : "",
                 !doc.right && doc.played_line ? `${doc.card}: ${doc.played_line}.` : "",
                 doc.explanation];
  $("explanation").textContent = parts.filter(Boolean).join(" ");
  $("line").textContent = doc.pv.length ? (doc.objective === "match" ? "line for the match: " : "line: ") + doc.pv.join(" ") : "";
  // three players: the mover's entry, then every seat's own points (max^n),
  // unsigned as the command line's seat columns are
  const seats = m => m.values && doc.seats ? " (" + doc.seats.map((n, i) => `${n} ${plain(m.values[i])}`).join(", ") + ")" : "";
  const match = doc.objective === "match";
  // played for the match: value and loss are chances of winning it, the
  // points this hand said as points
  const head = $("values").tHead.rows[0].cells;
  // drawn from the mover's seat: points averaged over the hands not seen
  head[1].textContent = match ? "to win the match"
    : doc.view === "mover" ? "value (average over the hands you cannot see)" : "value";
  head[2].textContent = match ? "loss (chance)" : "loss";
  // as the command line's puzzle tables print them (solver/cli/puzzles.py)
  const top = Math.max(...doc.moves.map(m => m.value));
  const plain = x => general(Number(fixed(x, 2)));
  $("values").tBodies[0].replaceChildren(...doc.moves.map(m =>
    el("tr", {class: (m.best ?? m.loss === 0) ? "best" : ""}, el("td", {}, m.move),
       el("td", {}, match ? `${chanceText(m.value)} (points this hand ${fmt(m.points)})` : fmt(m.value) + seats(m)),
       el("td", {}, match ? chanceGapText(top, m.value) : (m.loss ? plain(m.loss) : "")))));
}

function hint() {
  const p = puzzles[at];
  if (!p) return;
  hints += 1;
  const lines = [];
  if (hints >= 1) lines.push("themes: " + (p.themes.join(", ") || "none given"));
  if (hints >= 2) lines.push(p.depth ? `the idea shows ${p.depth} play${p.depth === "1" ? "" : "s"} ahead` : "look to the end of the deal");
  $("hints").textContent = lines.join(" · ");
}

async function init() {
  await loadCards();
  const sets = (await api("/api/puzzles")).sets;
  $("set").append(...sets.map(n => el("option", {value: n}, n)));
  $("set").onchange = () => { if ($("set").value) openSet({shipped: $("set").value}); };
  $("upload").onchange = async () => {
    const f = $("upload").files[0];
    if (f) { $("set").value = ""; openSet({text: await f.text()}); }
  };
  $("hint").onclick = hint;
  $("next").onclick = () => { if (puzzles.length) { at = (at + 1) % puzzles.length; show(); } };
  const given = new URLSearchParams(location.search).get("set");
  if (given) { $("set").value = given; await openSet({shipped: given}); }
  document.body.dataset.ready = "1";
}
init();
