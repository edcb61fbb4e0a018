// The table plays on with no connection. The hands this phone keeps for the game are
// played, with the rules' own arithmetic (rules.js), on top of the game as the server
// last showed it (#game-state): the scores, the verdict, each hand's row and the next
// hand's entry follow on the page, marked as on this phone only. Loaded by app.js once
// a game page is up. Whatever is drawn here is drawn whole each time, and taken back
// before the server's next answer is put in: the server stays the one authority.
// app.js imports it and calls what it exports; it imports nothing of app.js.
import {$, $$, digits, fill, gameId, root, words} from "./page.js";
import {fieldsOf, heldFor} from "./kept.js";
import * as R from "./rules.js";

const rtl = () => root.dir === "rtl";

// --- words: the server's sentences, with {part}s filled in --------------------------
// A number takes the page's digits, except inside what is kept as typed (a name).
function phrase(key, values = {}) {
  const source = $$("#offline-words, #offline-check").map((said) => $(`[data-word="${key}"]`, said.content)).find(Boolean);
  const out = document.createDocumentFragment();
  if (!source) return out;
  out.append(...[...source.childNodes].map((node) => node.cloneNode(true)));
  const texts = [], walk = document.createTreeWalker(out, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) texts.push(walk.currentNode);
  for (const text of texts) fillText(text, values);
  return out;
}
function fillText(text, values) {
  const parts = fill(text.data, values, Boolean(text.parentElement?.closest("[translate=no]")));
  if (parts.length > 1) text.replaceWith(...parts);
}
const mark = () => (rtl() ? "\u200e" : "");  // a sign stays left of its number
const minus = (n) => (n >= 0 ? String(n) : `${mark()}\u2212${-n}`);
const signed = (n) => `${mark()}${n >= 0 ? "+" : "\u2212"}${Math.abs(n)}`;

// --- what is changed, remembered so that it can be put back exactly ----------------
const originals = new Map();  // element -> its children and attributes as the server drew them
function remember(element) {
  if (!originals.has(element)) {
    originals.set(element, {nodes: [...element.childNodes], attributes: [...element.attributes].map((a) => [a.name, a.value])});
  }
  return element;
}
function put(element, content) {
  if (element) remember(element).replaceChildren(content);
}
function attribute(element, name, value) {
  if (!element) return;
  remember(element);
  if (value === null) element.removeAttribute(name); else element.setAttribute(name, value);
}
const hide = (element) => attribute(element, "hidden", "");
export function clear() {
  $$("[data-local]").forEach((element) => element.remove());
  for (const [element, was] of originals) {
    if (!element.isConnected) continue;
    element.replaceChildren(...was.nodes);
    [...element.attributes].forEach((a) => element.removeAttribute(a.name));
    was.attributes.forEach(([name, value]) => element.setAttribute(name, value));
  }
  originals.clear();
}
function local(tag, className, content) {
  const element = Object.assign(document.createElement(tag), {className});
  element.dataset.local = "";
  if (content) element.append(content);
  return element;
}

// --- the rules: this phone's hands played on the server's game -----------------------
export const island = () => { try { return JSON.parse($("#game-state").dataset.state); } catch { return null; } };

// The hands of ``held`` (this game's, in order) that follow on from the server's game:
// {base, state, results, applied, stuck}. ``stuck``: the first that can't be scored.
function play(held) {
  const base = island();
  if (!base) return null;
  let state = {...R.start(base.rules, base.nextDealer), scores: base.scores,
    verdict: {...base.verdict, target: base.rules.target}, number: base.number};
  const results = [], applied = [];
  let stuck = null;
  for (const entry of [...held].sort((a, b) => a.number - b.number)) {
    if (+entry.number < state.number) continue;  // the server has a hand of that number
    if (+entry.number !== state.number || entry.refused || state.verdict.winner) break;
    try {
      // Dealt as the game now stands: each seat keeps its call (the entry's dealt_by).
      const deal = R.readDeal(entry.fields, state.nextDealer, state.rules);
      state = R.carryOn(state, [deal]);
    } catch {
      stuck = entry;
      break;
    }
    results.push(state.results[state.results.length - 1]);
    applied.push(entry);
  }
  return {base, state, results, applied, stuck};
}

// --- drawing it --------------------------------------------------------------------
function drawScores(state) {
  for (const [team, score] of Object.entries(state.scores)) {
    const item = $(`.scores .team-${team}`);
    attribute(item, "class", `team team-${team}${state.verdict.winner === team ? " winner" : ""}`);
    const shown = $(".team-score", item);
    put(shown, document.createTextNode(digits(minus(score))));
    const label = document.createElement("i");
    label.append(phrase("team_score", {team, score: minus(score)}));
    attribute(shown, "aria-label", label.textContent);
  }
  $$(".scores progress, #chances, #needs").forEach(hide);  // worked out for the server's game
  put($("#verdict"), verdictPhrase(state.verdict));
}
// The teams a verdict lists are {t1}, {t2}… in its sentence, as many as it lists: two
// to six in cutthroat.
function verdictPhrase(verdict) {
  const listed = verdict.teams.length;
  const key = ["more_points", "bidder_breaks_tie", "tie_play_on"].includes(verdict.kind)
    ? `verdict_${verdict.kind}_${listed}` : `verdict_${verdict.kind}`;
  const teams = Object.fromEntries(verdict.teams.map((team, i) => [`t${i + 1}`, team]));
  return phrase(key, {team: verdict.winner, target: verdict.target, score: verdict.score, ...teams});
}

function row(result, names) {
  const item = local("li", `deal unsent${result.thrownIn ? " thrown-in" : ""}`);
  const head = local("p", "deal-head");
  head.append(local("strong", "", digits(`${result.number}.`)), " ", phrase("dealt", {name: names[result.dealerSeat]}), " ");
  if (result.thrownIn) {
    head.append(phrase("thrown_in"));
  } else {
    head.append(phrase("bid", {name: names[result.bidderSeat], team: result.biddingTeam, bid: result.bid,
      suit: phrase(`suit_${result.trump}`), taken: result.taken[result.biddingTeam]}), " ",
    local("strong", "", phrase(result.made ? "made" : "set")));
  }
  item.append(head);
  if (!result.thrownIn) {
    const points = local("p", "deal-points");
    for (const [point, team] of Object.entries(result.cardPoints)) points.append(phrase(`point_${point}`), digits(` ${team} · `));
    points.append(phrase("point_game"), " ", result.game || phrase("nobody"));
    item.append(points);
  }
  const scores = local("p", "deal-scores");
  Object.entries(result.scoresAfter).forEach(([team, total], i) => {
    const part = document.createElement("bdi");
    const change = result.scoreChange ? `${signed(result.scoreChange[team])} ` : "";
    part.append(digits(`${team} ${change}= `), local("strong", "", digits(minus(total))));
    scores.append(...(i ? [digits(" · "), part] : [part]));
  });
  item.append(scores, local("p", "unsent-mark", phrase("not_sent_mark")));
  return item;
}
function drawRows(results, names) {
  let list = $("#deals");
  if (!list) {
    hide($("#no-hands"));
    list = Object.assign(local("ol", "deals"), {id: "deals", reversed: true});  // as the server draws it
    $("#hands-top")?.after(list);
  }
  list.prepend(...results.map((result) => row(result, names)).reverse());
  // The server's Undo and "Bring back" are for its own last hand, and what a change
  // tapped with no connection answered is of no hand shown now: the phone's own Undo
  // (the banner's) takes their place.
  $$("#fixes form, #hand-entry .bring-back, #hand-entry .send-status[role=alert]").forEach(hide);
}

// Teams' changes in a hand, "A +2, B −1", as the server lists them.
function teamChanges(changes) {
  return changes.flatMap(([team, change], i) => [...(i ? [digits(", ")] : []), phrase("check_other", {team, change: signed(change)})]);
}
// The server's word on a hand it recorded, said of the last one played on the phone.
function drawNotice(result, state, names) {
  const scores = document.createDocumentFragment();
  scores.append(...teamChanges(Object.entries(result.scoreChange || {}).sort()));
  const notice = local("p", "notice", result.thrownIn
    ? phrase("thrown_in_again", {number: result.number, dealer: names[state.nextDealer]})
    : phrase("recorded", {number: result.number, scores}));
  notice.setAttribute("role", "status");
  hide($("#hand-entry > .notice"));  // the server's, on its own last hand
  $("#poller")?.after(notice);
}
function drawBanner(applied, undo) {
  const [first, last] = [applied[0].number, applied[applied.length - 1].number];
  const banner = local("div", "alert on-phone");
  banner.setAttribute("role", "status");
  banner.append(local("p", "", applied.length === 1
    ? phrase("on_phone_one", {number: first}) : phrase("on_phone", {first, last})));
  const again = local("button", "secondary", phrase("undo", {number: last}));
  again.type = "button";
  again.addEventListener("click", () => undo(applied[applied.length - 1], again));
  banner.append(local("p", "row", again));
  $("#poller")?.after(banner);
}

let drawn = {form: null, number: null};  // the entry last drawn: the hand on it
// The next hand's entry, round the game's own table: a turn for each of its seats (the
// page draws as many), from the dealer's left.
function drawEntry(state, names) {
  const form = $("#hand-form"), number = state.number, dealer = state.nextDealer;
  const order = R.biddingOrder(dealer, R.seatsAt(state.rules.teams));
  put($("#entry-title"), phrase("hand", {number}));
  put($("#hand-entry .who"), phrase("who", {dealer: names[dealer], seat: dealer, first: names[order[0]]}));
  if (drawn.form !== form || drawn.number !== number) {
    // A new hand: nothing chosen yet (app.js then puts back what was being entered).
    $$("input[type=radio], input[type=checkbox]", form).forEach((input) => { input.checked = false; });
    $$("input[inputmode=numeric]", form).forEach((input) => { input.value = ""; });
    form.classList.remove("tried");
    drawn = {form, number};
  }
  attribute(form, "data-number", String(number));
  for (const [name, value] of [["number", number], ["dealt_by", dealer]]) {
    attribute($(`input[name=${name}]`, form), "value", String(value));
  }
  order.forEach((seat, i) => {
    put($(`.turn-${i + 1} > legend`, form), document.createTextNode(names[seat]));
    put($(`.turn-${i + 1} .leads`, form), phrase("leads", {name: names[seat]}));
  });
  put($(".thrown-in-step .big-line", form), phrase("again", {name: names[dealer]}));
  put($(".record", form), phrase("record", {number}));
  put($("#preview"), document.createTextNode(""));
  $(".send-status", form).textContent = "";  // what was said of the hand before
  hide($("#other-phone"));
}
function drawOver(state) {
  put($("#entry-title"), phrase("over"));
  ["#hand-entry .who", "#hand-entry .clear-row", "#hand-form", "#other-phone", "#verdict"].forEach((s) => hide($(s)));
  $("#hand-form").after(local("p", "winners", phrase(`win_${state.verdict.winner}`)),
    local("p", "big-line", verdictPhrase(state.verdict)));
}

// The check line under Record, as the server says it (views/pages.preview_of), for the
// hand in the entry played on from the game as the phone has it: nothing until the
// points are all chosen; a hand the rules refuse is said to be so.
function checkLine(form) {
  const state = play(heldFor(gameId()))?.state;
  if (!state || String(state.number) !== form.dataset.number) return null;
  let result;
  try {
    const deal = R.readDeal(fieldsOf(form), state.nextDealer, state.rules);
    result = R.carryOn(state, [deal]).results[0];
  } catch (e) {
    return e.code === "tally_incomplete" || e.code === "auction_unfinished" || e.code === "trump_missing"
      ? null : phrase("cannot_score");
  }
  if (result.thrownIn) return null;
  const team = result.biddingTeam, line = document.createDocumentFragment();
  const others = teamChanges(Object.entries(result.scoreChange).filter(([other]) => other !== team));
  line.append(phrase(result.made ? "check_made" : "check_set", {team, bid: result.bid,
    taken: result.taken[team], change: signed(result.scoreChange[team])}), " ", ...others, ".");
  if (result.verdict.winner) line.append(" ", phrase("check_ends", {reason: verdictPhrase(result.verdict)}));
  else if (result.verdict.kind === "tie_play_on") line.append(" ", verdictPhrase(result.verdict));
  return line;
}
// Said where the server's would be, when the server can't be asked.
export function check() {
  const form = $("#hand-form");
  put($("#preview"), (form && checkLine(form)) || document.createTextNode(""));
}

// Plays ``held`` on the page: the page as the server drew it when nothing follows on.
function show(held, undo) {
  clear();
  if (!$("#offline-words")) return null;  // nothing to say it with: the server's page stays
  const played = play(held);
  if (!played || !played.applied.length) return played;
  const {base, state, results, applied} = played;
  drawScores(state);
  drawRows(results, base.names);
  drawBanner(applied, undo);
  drawNotice(results[results.length - 1], state, base.names);
  if (state.verdict.winner) drawOver(state); else drawEntry(state, base.names);
  return played;
}

// --- the page's side: what app.js calls --------------------------------------------------
const playedOn = new Set();  // the keys of the hands this page shows as played on the phone
export const shows = (key) => playedOn.has(key);

// This game's kept hands, played on the page; what can't be scored is said at Record.
// ``undo``: what the banner's Undo does with the last of them (app.js's).
export function here(undo) {
  const game = gameId();
  playedOn.clear();
  if (!game || !island()) return null;
  const played = show(heldFor(game), undo);
  played?.applied.forEach((entry) => playedOn.add(entry.key));
  if (played?.stuck) {  // the form is at that hand: said beside its Record
    const line = $("#hand-form .send-status");
    if (line) line.textContent = words("cannot_score");
  }
  return played;
}
// A hand recorded on the phone alone: whether it is played on the page (the next hand's
// entry up).
export function playOn(entry, undo) {
  here(undo);
  return playedOn.has(entry.key);
}
// A page as it arrives (and each fresh game block): kept, and the phone's hands played on.
export function arrived(undo) {
  clear();
  keepPage();
  here(undo);
}

// The game page as the phone shows it, kept by the service worker for a reload with no
// connection (where there is none, an address that isn't secure, nothing is kept).
function keepPage() {
  const url = island() && $("#hand-form")?.dataset.gameUrl;
  const worker = navigator.serviceWorker?.controller;
  if (!url || !worker) return;
  const copy = root.cloneNode(true);
  for (const id of ["outbox", "connection"]) {
    const element = copy.querySelector("#" + id);
    element?.replaceChildren();
    element?.setAttribute("hidden", "");
    element?.removeAttribute("data-said");
  }
  worker.postMessage({page: url, html: "<!doctype html>\n" + copy.outerHTML});
}
navigator.serviceWorker?.addEventListener("controllerchange", () => { if (!playedOn.size) keepPage(); });

// Nothing of a hand on the phone is asked of the server (its preview would be for a
// hand the server hasn't reached); its answers go onto the page as the server drew it.
document.addEventListener("htmx:beforeRequest", (event) => {
  if (event.detail.elt.id !== "preview" || (!playedOn.size && navigator.onLine !== false)) return;
  event.preventDefault();
  check();
});
document.addEventListener("htmx:beforeSwap", (event) => {
  if (event.detail.shouldSwap && event.detail.target?.id === "game") clear();
});

