// The live-shoe page of `baccarat serve` (GET /): plain JavaScript, no library, no build step.
// Every number shown comes from the server's exact fractions (POST /odds, POST /eor), rounded
// here with integer arithmetic (BigInt); the server validates every shoe and card.
"use strict";

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];
const POSITIONS = [[1, "Player 1st"], [2, "Banker 1st"], [3, "Player 2nd"], [4, "Banker 2nd"],
                   [5, "5th card"], [6, "6th card"]];
const BURN = "x";                       // a card dealt face down: in the count, not in the odds
const SUITS = [["s", "♠", "spade"], ["h", "♥", "heart"], ["d", "♦", "diamond"], ["c", "♣", "club"]];

const $ = (sel) => document.querySelector(sel);
const el = (tag, props = {}, ...children) => {
  const { dataset, ...rest } = props;
  const e = Object.assign(document.createElement(tag), rest);
  Object.assign(e.dataset, dataset || {});
  for (const c of children) e.append(c);
  return e;
};

let catalog = null;                     // GET /bets
let rulesDoc = null;                    // GET /rules
let state = null;                       // {decks, rules, option, bets, dealt, known}
let shown = { odds: null, eor: null };  // the request texts whose answers are on the page
let lastShoe = null;                    // the shoe of the odds on the page
let changedAt = 0;                      // performance.now() of the last change of state
const latencies = [];                   // ms from a change of state to its odds on the page
window.liveShoe = { latencies, get state() { return state; } };

// ---------------------------------------------------------------------------------------------
// Exact fractions "n/d" (io.tables.exact) shown as decimals

/** ``value * scale`` rounded to ``places`` decimals (half away from zero), from "n/d". */
function decimal(fraction, scale, places, plus = false) {
  const [n, d] = fraction.split("/").map(BigInt);
  const negative = n < 0n;
  const p = 10n ** BigInt(places);
  const q = ((negative ? -n : n) * BigInt(scale) * p * 2n + d) / (2n * d);
  const digits = q.toString().padStart(places + 1, "0");
  const text = places ? digits.slice(0, -places) + "." + digits.slice(-places) : digits;
  if (q === 0n) return text;
  return (negative ? "-" : plus ? "+" : "") + text;
}

function sign(fraction) {
  const n = BigInt(fraction.split("/")[0]);
  return n > 0n ? 1 : n < 0n ? -1 : 0;
}

// ---------------------------------------------------------------------------------------------
// State <-> URL fragment: #decks=8&rules=punto_banco&option=best&bets=banker,player,tie
//                        &dealt=5,K,x,9h&known=1:9,5:K

const escape = (v) => encodeURIComponent(v).replace(/%3A/gi, ":");

function encodeState(s) {
  const parts = [["decks", [String(s.decks)]], ["rules", [s.rules]]];
  if (s.option) parts.push(["option", [s.option]]);
  parts.push(["bets", s.bets]);
  if (s.dealt.length) parts.push(["dealt", s.dealt]);
  const known = Object.keys(s.known).sort().map((p) => p + ":" + s.known[p]);
  if (known.length) parts.push(["known", known]);
  return parts.map(([k, vs]) => k + "=" + vs.map(escape).join(",")).join("&");
}

function defaultBets() {
  return catalog.tables.main ? [...catalog.tables.main.bets] : Object.keys(catalog.bets).slice(0, 3);
}

function decodeState(fragment) {
  const q = new URLSearchParams(fragment.replace(/^#/, ""));
  const list = (k) => (q.get(k) || "").split(",").filter((x) => x !== "");
  const decks = q.has("decks") ? q.get("decks") : "8";
  const known = {};
  for (const item of list("known")) {
    const i = item.indexOf(":");
    if (i > 0) known[item.slice(0, i)] = item.slice(i + 1);
  }
  return {
    decks: /^\d+$/.test(decks) ? Number(decks) : decks,
    rules: q.get("rules") || Object.keys(rulesDoc.rules)[0],
    option: q.get("option") || "",
    bets: q.has("bets") ? list("bets") : defaultBets(),
    dealt: list("dealt"),
    known,
  };
}

// ---------------------------------------------------------------------------------------------
// Requests: one at a time per endpoint; a newer state replaces one not yet sent, and an answer
// to a state that is no longer the page's is dropped.

function channel(path, onAnswer, onError) {
  let busy = false;
  let queued = null;
  async function send(body) {
    busy = true;
    const text = JSON.stringify(body);
    let status = 0, doc;
    try {
      const r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: text });
      status = r.status;
      doc = await r.json();
    } catch (e) {
      doc = { error: `no answer from the server (${e.message}): is baccarat serve still running?` };
    }
    busy = false;
    if (queued !== null) {              // clicks came faster than answers: this one is stale
      const next = queued;
      queued = null;
      send(next);
      return;
    }
    if (status === 200) onAnswer(doc, text);
    else onError(doc && doc.error ? doc.error : `HTTP ${status}`, text);
  }
  return (body) => { if (busy) queued = body; else send(body); };
}

function oddsBody(s) {
  const body = { decks: s.decks, remove: s.dealt.filter((c) => c !== BURN), bets: s.bets, rules: s.rules };
  if (s.option) body.player_option = s.option;
  if (Object.keys(s.known).length) body.known = { ...s.known };
  return body;
}

function eorBody(s) {
  const body = oddsBody(s);
  delete body.known;
  return body;
}

const askOdds = channel("/odds", showOdds, showOddsError);
const askEor = channel("/eor", showEor, showEorError);

/** The state changed (a click, a key, the URL): record it, show what is known now, ask. */
function changed(record = true) {
  changedAt = performance.now();
  if (record) history.replaceState(null, "", "#" + encodeState(state));
  showControls();
  showDealt();
  // a burn card changes no request: the answer on the page stands, only the count moves
  if (JSON.stringify(oddsBody(state)) === shown.odds) {
    showCounts(lastShoe);
    done();
  } else {
    document.body.dataset.status = "busy";
    askOdds(oddsBody(state));
  }
  if ($("#eor-panel").open) refreshEor();
}

function refreshEor() {
  if (JSON.stringify(eorBody(state)) === shown.eor) return;
  $("#eor-panel").dataset.status = "busy";
  askEor(eorBody(state));
}

/** The page shows the odds of the state: record the time since it changed. */
function done() {
  document.body.dataset.status = "ready";
  const ms = performance.now() - changedAt;
  latencies.push(ms);
  document.body.dataset.latency = ms.toFixed(1);
}

// ---------------------------------------------------------------------------------------------
// Showing

function showControls() {
  $("#decks").value = state.decks;
  $("#rules").value = state.rules;
  const offers = (rulesDoc.rules[state.rules] || {}).player_option || [];
  $("#option").disabled = offers.length === 0;
  $("#option").value = state.option;
  for (const box of document.querySelectorAll("#bet-list input")) box.checked = state.bets.includes(box.value);
  $("#bets-count").textContent = String(state.bets.length);
  for (const [pos] of POSITIONS) $(`#known-${pos}`).value = state.known[pos] || "";
}

function showDealt() {
  const list = $("#dealt");
  list.replaceChildren(...state.dealt.map((c, i) => el("li", c === BURN ?
    { className: "burn", textContent: "burn", title: `card ${i + 1}: burned face down` } :
    { textContent: c, title: `card ${i + 1}` })));
}

function rankCounts(shoe) {
  const counts = Object.fromEntries(RANKS.map((r) => [r, 0]));
  for (const [name, n] of Object.entries(shoe.counts)) counts[name[0]] += n;
  return counts;
}

function showCounts(shoe) {
  const burns = state.dealt.filter((c) => c === BURN).length;
  const dealt = state.dealt.length;
  let text = `Cards dealt: ${dealt}` + (burns ? ` (${burns} burned face down)` : "");
  if (shoe) text += ` · cards left in the shoe: ${shoe.cards - burns}`;
  const known = Object.keys(state.known).length;
  if (known) text += ` · ${known} known card${known > 1 ? "s" : ""} of the coup in progress`;
  $("#counts").textContent = text;
  if (!shoe) return;
  const counts = rankCounts(shoe);
  for (const button of document.querySelectorAll("#cards button")) {
    const r = button.dataset.rank;
    button.querySelector("small").textContent = `${counts[r]} left`;
    button.classList.toggle("empty", counts[r] === 0);
    button.setAttribute("aria-label", `Deal ${r} (${counts[r]} left)`);
  }
}

function exactCell(fraction, scale, places, suffix = "", plus = false) {
  return el("td", { textContent: decimal(fraction, scale, places, plus) + suffix, title: `exact: ${fraction}`,
                    dataset: { exact: fraction } });
}

function showOdds(doc, text) {
  if (text !== JSON.stringify(oddsBody(state))) return;        // an older state's answer
  $("#error").hidden = true;
  const o = doc.outcomes;
  $("#outcomes").textContent = `Player ${decimal(o.player.probability, 100, 4)}% · ` +
    `Banker ${decimal(o.banker.probability, 100, 4)}% · Tie ${decimal(o.tie.probability, 100, 4)}%`;
  const rows = Object.entries(doc.bets).map(([id, b]) => {
    const positive = sign(b.ev) > 0;
    const name = el("td", {}, b.name + " ", el("code", { textContent: id }));
    const flag = el("td", {}, positive ? el("span", { className: "badge", textContent: "+EV" }) : "no");
    return el("tr", { className: positive ? "positive" : "", dataset: { bet: id } }, name,
              exactCell(b.house_edge, 100, 4, "%"), exactCell(b.ev, 1, 6, "", true), flag);
  });
  $("#results tbody").replaceChildren(...rows);
  shown.odds = text;
  lastShoe = doc.shoe;
  showCounts(doc.shoe);
  done();
}

function showOddsError(message, text) {
  if (text !== JSON.stringify(oddsBody(state))) return;
  $("#error").textContent = message;
  $("#error").hidden = false;
  $("#outcomes").textContent = "";
  $("#results tbody").replaceChildren(el("tr", { className: "stale" },
    el("td", { colSpan: 4, textContent: "No odds for this shoe: see the message above (Undo or Backspace removes the last card)." })));
  shown.odds = null;
  lastShoe = null;
  showCounts(null);
  document.body.dataset.status = "error";
}

function showEor(doc, text) {
  if (text !== JSON.stringify(eorBody(state))) return;
  $("#eor-error").hidden = true;
  const ids = Object.keys(doc.bets);
  $("#eor thead").replaceChildren(el("tr", {}, el("th", { scope: "col", textContent: "Next card" }),
    ...ids.map((id) => el("th", { scope: "col", textContent: id }))));
  const counts = doc.shoe.counts;
  const rows = RANKS.filter((r) => counts[r] > 0).map((r) => el("tr", { dataset: { rank: r } },
    el("th", { scope: "row", textContent: `${r} (${counts[r]} left)` }),
    ...ids.map((id) => {
      const effect = doc.bets[id].effects[r];
      if (effect === null) return el("td", { className: "missing", textContent: "—" });
      const cell = exactCell(effect, 100, 6, "", true);
      cell.className = sign(effect) > 0 ? "up" : sign(effect) < 0 ? "down" : "";
      return cell;
    })));
  $("#eor tbody").replaceChildren(...rows);
  shown.eor = text;
  $("#eor-panel").dataset.status = "ready";
}

function showEorError(message, text) {
  if (text !== JSON.stringify(eorBody(state))) return;
  $("#eor-error").textContent = message;
  $("#eor-error").hidden = false;
  $("#eor tbody").replaceChildren();
  shown.eor = null;
  $("#eor-panel").dataset.status = "error";
}

// ---------------------------------------------------------------------------------------------
// Actions

function deal(card) { state.dealt.push(card); changed(); }

/** The last card dealt is of suit ``s`` (bets on suits need every card's suit). */
function suit(s) {
  const last = state.dealt.length - 1;
  if (last < 0 || state.dealt[last] === BURN || !RANKS.includes(state.dealt[last][0])) return;
  state.dealt[last] = state.dealt[last][0] + s;
  changed();
}
function undo() { if (state.dealt.length) { state.dealt.pop(); changed(); } }

/** A typed card as the server names it: 0 is a ten (T), ranks upper case, suits lower case. */
function cardName(token) {
  if (/^x$/i.test(token)) return BURN;
  if (token === "0") return "T";
  if (/^[a2-9tjqk0][shdc]$/i.test(token)) return (token[0] === "0" ? "T" : token[0].toUpperCase()) + token[1].toLowerCase();
  return /^[a2-9tjqk]$/i.test(token) ? token.toUpperCase() : token;   // anything else: the server says why
}

function build() {
  const rules = $("#rules");
  for (const name of Object.keys(rulesDoc.rules)) rules.append(el("option", { value: name, textContent: name }));
  for (const option of rulesDoc.player_options) $("#option").append(el("option", { value: option, textContent: option }));
  for (const [id, t] of Object.entries(catalog.tables)) $("#table").append(el("option", { value: id, textContent: t.name }));
  const list = $("#bet-list");
  for (const [id, b] of Object.entries(catalog.bets)) {
    const box = el("input", { type: "checkbox", value: id, id: `bet-${id}` });
    list.append(el("label", { htmlFor: `bet-${id}`, title: b.description, dataset: { search: `${id} ${b.name}`.toLowerCase() } },
                   box, ` ${b.name} `, el("code", { textContent: id })));
  }
  const cards = $("#cards");
  for (const r of RANKS) {
    cards.append(el("button", { type: "button", dataset: { rank: r }, ariaLabel: `Deal ${r}` },
                    el("span", { textContent: r }), el("small", { textContent: "" })));
  }
  const suits = $("#suits");
  for (const [s, symbol, name] of SUITS) {
    suits.append(el("button", { type: "button", dataset: { suit: s }, textContent: `${symbol} ${s.toUpperCase()}`,
                                ariaLabel: `The last card is a ${name}`, ariaKeyShortcuts: s.toUpperCase() }));
  }
  suits.addEventListener("click", (e) => {
    const button = e.target.closest("button");
    if (button) suit(button.dataset.suit);
  });
  const known = $("#known");
  for (const [pos, name] of POSITIONS) {
    const select = el("select", { id: `known-${pos}` }, el("option", { value: "", textContent: "—" }),
                      ...RANKS.map((r) => el("option", { value: r, textContent: r })));
    known.append(el("label", { htmlFor: `known-${pos}` }, `${name} (${pos})`, select));
    select.addEventListener("change", () => {
      if (select.value) state.known[pos] = select.value; else delete state.known[pos];
      changed();
    });
  }

  $("#decks").addEventListener("change", () => {
    const v = $("#decks").value.trim();
    state.decks = /^\d+$/.test(v) ? Number(v) : v;
    changed();
  });
  rules.addEventListener("change", () => {
    state.rules = rules.value;
    if (!((rulesDoc.rules[state.rules] || {}).player_option || []).length) state.option = "";
    changed();
  });
  $("#option").addEventListener("change", () => { state.option = $("#option").value; changed(); });
  $("#table").addEventListener("change", () => {
    const t = catalog.tables[$("#table").value];
    if (t) { state.bets = [...t.bets]; changed(); }
    $("#table").value = "";
  });
  $("#bets-main").addEventListener("click", () => { state.bets = defaultBets(); changed(); });
  list.addEventListener("change", () => {
    state.bets = [...document.querySelectorAll("#bet-list input")].filter((b) => b.checked).map((b) => b.value);
    changed();
  });
  $("#bet-filter").addEventListener("input", () => {
    const words = $("#bet-filter").value.trim().toLowerCase();
    for (const label of list.querySelectorAll("label")) label.hidden = !label.dataset.search.includes(words);
  });
  cards.addEventListener("click", (e) => {
    const button = e.target.closest("button");
    if (button) deal(button.dataset.rank);
  });
  $("#burn").addEventListener("click", () => deal(BURN));
  $("#undo").addEventListener("click", undo);
  $("#reset").addEventListener("click", () => { state.dealt = []; state.known = {}; changed(); });
  const enter = () => {
    const tokens = $("#enter").value.split(/[\s,]+/).filter((t) => t !== "").map(cardName);
    if (!tokens.length) return;
    state.dealt.push(...tokens);
    $("#enter").value = "";
    changed();
  };
  $("#enter-add").addEventListener("click", enter);
  $("#enter").addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); enter(); } });
  $("#known-deal").addEventListener("click", () => {
    const cardsOfCoup = Object.keys(state.known).map(Number).sort((a, b) => a - b).map((p) => state.known[p]);
    if (!cardsOfCoup.length) return;
    state.dealt.push(...cardsOfCoup);
    state.known = {};
    changed();
  });
  $("#known-clear").addEventListener("click", () => { state.known = {}; changed(); });
  $("#eor-panel").addEventListener("toggle", () => {
    if ($("#eor-panel").open) refreshEor();
  });

  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || e.target.closest("input, select, textarea")) return;
    const key = e.key.length === 1 ? e.key.toUpperCase() : e.key;
    if (key === "0" || RANKS.includes(key)) deal(key === "0" ? "T" : key);
    else if (key === "X") deal(BURN);
    else if (["S", "H", "D", "C"].includes(key)) suit(key.toLowerCase());
    else if (key === "Backspace") undo();
    else if (key === "E") { $("#eor-panel").open = !$("#eor-panel").open; }
    else return;
    e.preventDefault();
  });
  window.addEventListener("hashchange", () => { state = decodeState(location.hash); changed(false); });
}

async function start() {
  try {
    const [bets, rules] = await Promise.all([fetch("/bets"), fetch("/rules")]);
    catalog = await bets.json();
    rulesDoc = await rules.json();
  } catch (e) {
    $("#error").textContent = `cannot read the bets and rules from the server (${e.message})`;
    $("#error").hidden = false;
    document.body.dataset.status = "error";
    return;
  }
  build();
  state = decodeState(location.hash);
  changed();
}

start();
