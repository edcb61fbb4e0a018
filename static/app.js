// The scorekeeper's own script. Every page works without it; with it, a hand is entered
// on the phone alone (CSS shows each step) and Record never loses a hand to the network.
import {$, $$, gameId, root, words} from "./page.js";
import {draftKey, fieldsOf, heldFor, outbox, store} from "./kept.js";

// Every htmx request carries the CSRF token from the page's meta tag.
const csrfToken = () => $('meta[name="csrf-token"]')?.content || "";
// Each step of a hand goes with a number that only rises (this page's or a later one's):
// two quick taps reach the server at once, and it keeps the later whatever ends first.
let lastStep = 0;
document.addEventListener("htmx:configRequest", ({detail}) => {
  if (detail.verb !== "get") detail.headers["X-CSRFToken"] = csrfToken();
  else if (detail.elt.closest?.("#hand-entry")) detail.parameters.step = lastStep = Math.max(lastStep + 1, Date.now());
});

// --- what this phone keeps (kept.js): the outbox written, and said ---------------------
function keepOutbox(entries) {
  if (entries.length) store.set("outbox", entries); else store.remove("outbox");
  showOutbox();
}
const forget = (entry) => keepOutbox(outbox().filter((e) => e.key !== entry.key));

// --- the hand form -----------------------------------------------------------------------
const POINTS = ["high", "low", "right", "left", "joker"];
const handForm = () => $("#hand-form");
function putFields(form, fields) {
  $$("input[type=radio]", form).forEach((i) => { i.checked = false; });
  $$("input[inputmode=numeric]", form).forEach((i) => { i.value = ""; });
  for (const [name, value] of fields) {
    for (const input of $$(`input[name="${name}"]:not([type=hidden])`, form)) {
      if (input.type === "radio") input.checked = input.value === value; else input.value = value;
    }
  }
}
const hasChoices = (form) => $$("input:checked, input[inputmode=numeric]", form).some((i) => i.checked || i.value);
const chosen = (form, name) => $(`input[name="${name}"]:checked`, form);
const counted = (form) => $$(".game-values input", form).some((i) => i.value !== "");
function missingPoints(form) {
  const missing = POINTS.filter((point) => !chosen(form, point));
  if (!chosen(form, "game") && !counted(form)) missing.push("game");
  return missing;
}
const ownEntry = (form) => "own" in form.dataset;  // a correction is not kept
const sameHand = (e, form) => e.game === form.dataset.game && e.number === form.dataset.number;
function saveDraft(form) {
  if (!ownEntry(form)) return;
  store.set(draftKey(form.dataset.game), {number: form.dataset.number, fields: fieldsOf(form)});
  // Changed after Record was tapped: what is sent is what the page shows now (a new key:
  // if the first did arrive, the server shows the two side by side).
  const held = outbox().find((e) => sameHand(e, form) && !sending.has(e.key));
  if (held) keepOutbox(outbox().map((e) => (e.key === held.key ? {...e, fields: fieldsOf(form), key: newKey()} : e)));
}
const uncheck = (form, selector) => $$(selector, form).forEach((i) => { i.checked = false; });

// Each choice clears what it makes meaningless, before htmx sends the preview (capture).
document.addEventListener("change", (event) => {
  const input = event.target, form = input.form;
  if (!form || form.id !== "hand-form") return;
  const turn = /^turn_(\d)$/.exec(input.name);
  if (input.name === "bid") {
    uncheck(form, ".turn input, #reopen-bid");
  } else if (turn) {
    uncheck(form, "input[name=bid], #reopen-bid");
    const bid = +input.value || 0;  // 0: a pass
    if (bid) {
      // Turn by turn, each bid is above the ones before it; any other bid tapped puts the
      // winning bid right: the last one tapped stands alone.
      const others = $$(".turn .bid:checked", form).filter((other) => other !== input);
      if (!others.every((other) => +other.name.slice(5) < +turn[1] && +other.value < bid)) {
        others.forEach((other) => { other.checked = false; });
      }
      if (bid === 6) uncheck(form, `.turn-${turn[1]} ~ .turn input`);
      if (!chosen(form, "trump")) requestAnimationFrame(() => $(".trump-step", form).scrollIntoView({block: "nearest"}));
    }
  } else if (input.name === "trump") {
    requestAnimationFrame(() => bringRecordIntoView(form));
  } else if (input.name === "rest") {
    // "The rest to C": every point still open goes to that team.
    for (const point of counted(form) ? POINTS : [...POINTS, "game"]) {
      const team = $(`input[name="${point}"][value="${input.value}"]`, form);
      if (team && !chosen(form, point)) team.checked = true;
    }
    input.checked = false;
  }
  if (!missingPoints(form).length) form.classList.remove("tried");
  $("#bring-back-entry")?.setAttribute("hidden", "");
  saveDraft(form);
}, true);
// A number typed is kept as it is typed, not only once it is left.
document.addEventListener("input", (event) => {
  if (event.target.form?.id === "hand-form") saveDraft(event.target.form);
});

// Once trump is chosen, the points, Record and the preview below it are brought onto the
// screen.
function bringRecordIntoView(form) {
  const last = $("#preview", form) || $(".record", form);
  const below = last && last.getClientRects().length
    ? last.getBoundingClientRect().bottom + 8 - innerHeight : 0;
  if (below > 0) scrollBy(0, below);
}

// "Clear this hand" can be taken back: until the next choice, "Bring it back" puts the
// cleared hand back as it was.
document.addEventListener("reset", (event) => {
  const form = event.target, back = $("#bring-back-entry");
  if (form.id !== "hand-form") return;
  const cleared = hasChoices(form) && fieldsOf(form);
  setTimeout(() => {  // after the browser's own reset, which restores the page's choices
    refill(form, []);
    if (!cleared || !back) return;
    back.hidden = false;
    back.onclick = () => { back.hidden = true; refill(form, cleared); };
  });
});
function refill(form, fields) {
  putFields(form, fields);
  form.classList.remove("tried");
  saveDraft(form);
  window.htmx?.trigger(form, "change");
}

document.addEventListener("submit", (event) => {
  const form = event.target;
  if (form.id !== "hand-form" || !window.fetch) return;
  event.preventDefault();
  const throwIn = event.submitter?.closest(".thrown-in-step");
  if (!throwIn && (!chosen(form, "trump") || missingPoints(form).length)) {
    form.classList.add("tried");  // the missing points are marked where they are
    $(".missing", form)?.scrollIntoView({block: "nearest"});
    // The first point still open takes the focus: a screen reader says which it is.
    $$(".tally-step .point:not(.rest)", form).find((row) => !$("input:checked", row))
      ?.querySelector("input")?.focus({preventScroll: true});
    return;
  }
  const fields = fieldsOf(form), {game, number} = form.dataset;
  // The same hand sent again keeps its key: the server knows it by that.
  const same = outbox().find((e) => sameHand(e, form) && JSON.stringify(e.fields) === JSON.stringify(fields));
  const entry = same || {key: newKey(), game, number, url: form.action, fields, gameUrl: form.dataset.gameUrl};
  keepOutbox([...outbox().filter((e) => !sameHand(e, form)), entry]);
  // With no connection at all the table plays on at once; a hand after others still on
  // this phone waits for them. Else it is sent, and played on if that fails.
  if (navigator.onLine === false) return notSent(entry, "not_sent");
  if (heldBefore(entry) && playOnAlone(entry)) return nextHandInView(), flush();
  send(entry);
});
const heldBefore = (entry) => outbox().some((e) => e.game === entry.game && +e.number < +entry.number);
const heldAfter = (entry) => outbox().some((e) => e.game === entry.game && +e.number > +entry.number);

const newKey = () => window.crypto?.randomUUID?.()
  || Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 12);

// --- sending: exactly once, whatever the network does ------------------------------------
// The entry's key comes with it each time: the server records it once and, asked again,
// answers that it was recorded. Until an answer comes, the entry stays on this phone.
const sending = new Set();
let retryTimer = null, retries = 0;

function formFor(entry) {
  const form = handForm();
  return form && form.dataset.game === entry.game && form.dataset.number === entry.number ? form : null;
}
function status(entry, pending, text) {
  const form = formFor(entry);
  if (!form) return showOutbox();
  const line = $(".send-status", form);
  line.textContent = text;
  line.classList.toggle("pending", pending);
  form.toggleAttribute("aria-busy", pending);  // CSS: Record can't be tapped meanwhile
  if (!pending) line.scrollIntoView({block: "nearest"});
}

async function send(entry, tokenRenewed = false) {
  if (sending.has(entry.key)) return;
  sending.add(entry.key);
  status(entry, true, words("sending", {number: entry.number}));
  const body = new URLSearchParams([...entry.fields, ["entry_key", entry.key]]);
  // The page this hand's own entry is on can take just what the hand changes: say so.
  const own = formFor(entry), shows = own && ownEntry(own) ? {"X-Scorekeeper-Shows": own.elements.revision?.value || ""} : {};
  let response, text, late = false;
  const stop = new AbortController();
  const timer = setTimeout(() => { late = true; stop.abort(); }, 15000);
  try {
    response = await fetch(entry.url, {
      method: "POST", body, credentials: "same-origin", signal: stop.signal,
      headers: {"X-CSRFToken": csrfToken(), "HX-Request": "true", "HX-Target": "game", ...shows},
    });
    text = await response.text();
  } catch {
    return notSent(entry, late ? "not_sent_server" : "not_sent");
  } finally {
    clearTimeout(timer);
    sending.delete(entry.key);
  }
  // Only the app's own verdict (recorded, or refused and why) settles it: never a proxy's
  // error page or a login page on the way.
  if (response.headers.get("X-Scorekeeper-Verdict")) return answered(entry, response, text);
  if (response.status === 400 && !tokenRenewed) return renewToken(entry);
  notSent(entry, "not_sent_server");
}

function notSent(entry, why) {
  const own = formFor(entry);
  status(entry, false, words(why, {number: entry.number}));
  if (own && ownEntry(own)) playOn(entry);  // the table goes on at once
  showOutbox();
  retryTimer ||= setTimeout(() => { retryTimer = null; flush(); }, Math.min(30000, 2000 * 2 ** retries++));
}

// Played on the phone, once it can be: a page come back to as the connection went asks
// again for what it lacks (the service worker keeps the words), then plays on (arrived).
function playOn(entry) {
  if (canPlayOn()) playOnAlone(entry) && nextHandInView();
  else offlineReady();
}
// A hand recorded on the phone alone: its draft done with, and the next hand's entry up
// (true: the caller brings it into view).
function playOnAlone(entry) {
  if (!offline?.playOn(entry, undoKept)) return false;
  store.remove(draftKey(entry.game));
  showOutbox();
  return true;
}
// The last hand played on the phone taken back into the entry, to be put right (the Undo
// on the banner offline.js draws).
function undoKept(entry, tap) {
  if (sending.has(entry.key)) return void (tap.textContent = words("sending", entry));  // on its way
  forget(entry);
  store.set(draftKey(entry.game), {number: entry.number, fields: entry.fields});
  arrived();
}

// After a Record, online or played on: the page from its top (the scores), and only if
// the next hand's first row is then below the fold, just enough to bring it on screen.
function nextHandInView() {
  scrollTo(0, 0);
  $("#hand-form .turn-1")?.scrollIntoView({block: "nearest"});
}

// A refused token (the session ended since the page was shown): take a fresh one, once.
async function renewToken(entry) {
  try {
    const page = await (await fetch(entry.gameUrl || location.href, {credentials: "same-origin"})).text();
    const fresh = /<meta name="csrf-token" content="([^"]+)"/.exec(page);
    if (fresh) $('meta[name="csrf-token"]').content = fresh[1];
    send(entry, true);
  } catch {
    notSent(entry, "not_sent");
  }
}

function answered(entry, response, text) {
  retries = 0;
  const game = $("#game"), own = formFor(entry);
  if (store.get(draftKey(entry.game))?.number === entry.number) store.remove(draftKey(entry.game));
  // Recorded: the next hand kept after it goes with the revision this answer gave. A hand
  // kept after others and refused holds the rest back: the player chooses (see showOutbox).
  if (response.ok) chainRevision(entry, response.headers.get("X-Scorekeeper-Revision"));
  // A refusal is said by the game's page the answer goes to (both versions, and the way to
  // put this phone's in): nothing more to choose there, unless hands kept after it wait.
  const here = game?.dataset.game === entry.game;
  if (response.ok || (here && !heldAfter(entry))) forget(entry);
  else keepOutbox(outbox().map((e) => (e.key === entry.key ? {...e, refused: true} : e)));
  if (game && game.dataset.game === entry.game && window.htmx) {
    offline?.clear();
    // "none": the answer is only parts of the page, each swapped in by its id.
    htmx.swap(game, text, {swapStyle: response.headers.get("HX-Reswap") || "outerHTML"});
    if (entry.gameUrl) history.replaceState(null, "", entry.gameUrl);
    if (own) nextHandInView();
    arrived();
  } else if (response.ok) {
    // Answered while another page is open: said there. A refusal is shown in the game.
    note(words("recorded", entry));
  }
  if (response.ok) flush();
}

// --- hands kept offline: in order, one game at a time, each after the one before it ----
// A hand goes with the revision it was entered against, or, kept after another, the one
// that hand's answer gave: a change made meanwhile on another phone is never passed over
// (the server refuses it, and the player sees why). Its dealer goes with it (dealt_by):
// the server deals it as the game now stands, every seat keeping its call.
const revised = (entry, revision) => ({...entry, fields: entry.fields.map(([name, value]) => [name, name === "revision" ? String(revision) : value])});
function chainRevision(entry, revision) {
  if (revision) keepOutbox(outbox().map((e) => (e.game === entry.game && +e.number === +entry.number + 1 ? revised(e, revision) : e)));
}
// Sent again by the player, who has seen the game as it stands: with its revision.
function sendAgain(entry) {
  const base = offline?.island(), again = {...(base ? revised(entry, base.revision) : entry), refused: false};
  keepOutbox(outbox().map((e) => (e.key === entry.key ? again : e)));
  retries = 0;
  send(again);
}
// This phone's hand dropped for the one recorded: the next goes with the revision of the
// game the player was looking at when choosing.
function keepRecorded(entry) {
  forget(entry);
  chainRevision(entry, offline?.island()?.revision);
  flush();
}
// Every game's first hand held is sent, from whatever page is open; one refused waits
// for the player (shown in its game), and so do the hands after it. On the game's own
// page, not before the page can play on with them (offline.js), unless it can't load.
function flush() {
  if (navigator.onLine === false) return;  // the "online" event brings them
  const games = new Set(outbox().map((e) => e.game));
  for (const game of games) {
    const first = heldFor(game)[0];
    if (!first.refused && !(offlineLoading && game === gameId())) send(first);
  }
}
const offlinePage = () => document.body.classList.contains("offline-page");
addEventListener("online", () => {
  if (offlinePage()) return location.reload();
  retries = 0;
  if (offlineSince) givePollUp();  // sent with no connection: the next one asks afresh
  flush();
});

// --- playing on with no connection: offline.js, imported once a game page is up -------
// With its words and the rules (rules.js); kept by the service worker for a reload. The
// page says once it has them (data-offline-ready): nothing of this script is a global.
let offline = null, offlineParts = null, offlineLoading = false;
const canPlayOn = () => Boolean(offline && $("#offline-words"));  // its script and its words
function offlineReady() {
  const island = $("#game-state");
  if (canPlayOn() || !island) return Promise.resolve(Boolean(offline));
  offlineLoading = true;
  offlineParts ||= Promise.all([offlineWords(island), offline || importOffline().then(loaded)])
    .then(() => true, () => false)
    .then((ready) => {
      offlineParts = null;
      offlineLoading = false;
      if (ready) arrived(); else if (!retryTimer) flush();  // tried again with the next answer or page
      return ready;
    });
  return offlineParts;
}
// offline.js, the rules it imports and theirs, asked for side by side, not one once the
// other has come: a table that loses its connection just after the page came can still
// play on.
const importOffline = () => Promise.all(
  [import("./offline.js"), import("./rules.js"), import("./rules_data.js")],
).then(([module]) => module);
function loaded(module) {
  offline = module;
  root.toggleAttribute("data-offline-ready", true);
}
// The words, once: only an answer that holds them (never a portal's page on the way).
const offlineWords = (island) => $("#offline-words") || fetch(island.dataset.words, {credentials: "same-origin"})
  .then((r) => (r.ok ? r.text() : Promise.reject(r.status)))
  .then((html) => {
    if (!html.includes('id="offline-words"')) return Promise.reject(new Error("not the words"));
    if (!$("#offline-words")) document.body.insertAdjacentHTML("beforeend", html);
  });
addEventListener("load", () => offlineReady());

// --- the outbox on every page: what this phone still holds, with a way to drop it --------
function note(text) {
  const box = $("#outbox");
  if (box) Object.assign(box, {hidden: false, className: "notice", textContent: text}).setAttribute("role", "status");
}
function showOutbox() {
  const box = $("#outbox");
  if (!box) return;
  // A hand this game plays on with is shown in the game itself, not here; so is the hand
  // being entered, unless it is held back (and the hands after it with it).
  const shown = outbox().filter((entry) => (!formFor(entry) || entry.refused) && !offline?.shows(entry.key));
  const worded = Boolean($("#offline-words"));  // a game page's words, once they are up
  const said = JSON.stringify([worded, ...shown.map((e) => [e.key, e.refused, recordedHere(e), heldFor(e.game)[0].key])]);
  if (box.dataset.said === said) return;  // said already: not announced again
  Object.assign(box, {hidden: !shown.length, className: "alert"}).setAttribute("role", "alert");
  box.dataset.said = said;
  box.replaceChildren(...shown.flatMap((entry) => {
    const line = document.createElement("p"), row = document.createElement("p");
    const here = entry.game === gameId(), first = heldFor(entry.game)[0].key === entry.key;
    line.textContent = words(entry.refused && here && worded ? "held" : entry.refused ? "refused" : "kept", entry);
    row.className = "row";
    if (!here && entry.gameUrl && entry.gameUrl !== location.pathname) {
      const open = Object.assign(document.createElement("a"), {
        className: "button secondary", href: entry.gameUrl, textContent: words("open_game")});
      row.append(open);
    } else if (!offlinePage() && first) {  // in order: the first a game holds, only
      row.append(button(words("send_now"), () => sendAgain(entry)));
    }
    if (entry.refused && here && worded && recordedHere(entry)) {
      // Another phone's hand of that number stands: kept (this one dropped, the hands
      // after it follow), or this one put in instead (the link beside the two versions).
      row.append(button(words("keep_recorded", entry), () => keepRecorded(entry)));
      return [line, row];
    }
    row.append(button(words("discard"), (tap) => {
      if (tap.dataset.armed) return forget(entry);  // the second tap: dropped
      tap.dataset.armed = "yes";
      tap.textContent = words("discard_confirm", entry);
    }));
    return [line, row];
  }));
}
// Whether the game, as this page shows it, has a hand of the entry's number already.
const recordedHere = (entry) => +entry.number < (offline?.island()?.number ?? 0);
function button(text, action) {
  const tap = Object.assign(document.createElement("button"), {type: "button", className: "secondary", textContent: text});
  tap.addEventListener("click", () => action(tap));
  return tap;
}

// --- a page as it arrives (and each fresh game block): its own entry and outbox back -----
function arrived() {
  offline?.arrived(undoKept);
  if (!canPlayOn() && heldFor(gameId()).length) offlineReady();
  const form = handForm(), game = gameId();
  const draft = game && store.get(draftKey(game));
  if (form && ownEntry(form) && draft?.number === form.dataset.number) {
    const before = JSON.stringify(fieldsOf(form));
    if (document.activeElement?.form !== form) putFields(form, draft.fields);  // never under a thumb
    if (JSON.stringify(fieldsOf(form)) !== before) window.htmx?.trigger(form, "change");
  } else if (draft && (!form || (ownEntry(form) && +draft.number < +form.dataset.number))) {
    store.remove(draftKey(game));  // for a hand recorded since, or a game over
    // Recorded on another phone while this one was entering it: said, with a way to put
    // this phone's entry in that hand instead.
    const held = outbox().some((e) => e.game === game && e.number === draft.number);
    if (form && !held && draft.fields.some(([name]) => name.startsWith("turn_") || name === "bid")) {
      elsewhere(form, draft);
    }
  }
  // A hand the server put in the entry (one undone, to be put right) is kept as entered,
  // unless the phone keeps that hand itself: the server's may be an older half of it, and
  // the phone's goes, put back in the entry below.
  const keptHere = form && outbox().some((e) => sameHand(e, form));
  if (form && ownEntry(form) && !keptHere && store.get(draftKey(game))?.number !== form.dataset.number && hasChoices(form)) saveDraft(form);
  for (const entry of outbox()) {
    const own = formFor(entry);
    if (own) putFields(own, entry.fields);
    if (navigator.onLine === false || offlinePage()) notSent(entry, "not_sent");
  }
  if (navigator.onLine !== false && !offlinePage()) flush();
  showOutbox();
  localTimes(document);
}
function elsewhere(form, draft) {
  const line = Object.assign(document.createElement("p"), {className: "alert", textContent: words("elsewhere", draft)});
  line.setAttribute("role", "alert");
  const query = new URLSearchParams(draft.fields.filter(([name]) => name !== "number" && name !== "revision"));
  const putIn = Object.assign(document.createElement("a"), {
    className: "button secondary", textContent: words("put_in", draft),
    href: form.dataset.edit.replace("/0/", `/${draft.number}/`) + "?" + query});
  line.append(" ", putIn);
  $("[data-overtaken]")?.remove();  // the page's own word for the same thing: said once
  form.before(line);
}
document.addEventListener("DOMContentLoaded", arrived);
document.addEventListener("htmx:afterSettle", (event) => {
  if (event.detail.target?.id !== "game") return localTimes(event.detail.target);
  if (event.detail.xhr?.getResponseHeader("HX-Reswap") === "none") return void offline?.here(undoKept);  // only out of band
  arrived();
  // Another phone's change, said where the player is looking: on screen, above the entry.
  const notice = $("#hand-entry .notice:not([data-shown])");
  notice?.setAttribute("data-shown", "");
  notice?.scrollIntoView({block: "nearest"});
});

// --- live pages: say so when they fall behind, and anything else not sent ----------------
let offlineSince = null;
function pollFailed() {
  const line = $("#connection");
  if (!line) return;
  if (!offlineSince) {
    offlineSince = new Date();
    const time = offlineSince.toLocaleTimeString(root.lang || "en", {hour: "2-digit", minute: "2-digit"});
    line.textContent = words("stale", {time});
    // Over plain http:// there is no service worker: a reload offline can't show the game.
    if (!window.isSecureContext && $("#offline-words")) line.textContent += " " + words("not_secure");
  }
  line.setAttribute("role", "alert");
  line.hidden = false;
}
// Behind, a poll asks at once (not held) and is given up when no answer comes soon: one
// that went out as a Wi-Fi came back may have lost its first packets, and would be waited
// for as long as a held poll. The next asks again: the page says the connection is back
// as soon as it is.
const BEHIND_POLL_MS = 3000;
// Each page's polls have an address of their own: a browser sends one request for an
// address at a time while it might answer the next from its cache (Chromium's cache
// lock). Two pages on one board or game in one browser had the second's poll leave only
// once the first's held one was answered, then be held in turn: out 37-56 s, given up
// at 35 s.
const PAGE = Math.random().toString(36).slice(2, 10);
document.addEventListener("htmx:configRequest", ({detail}) => {
  if (!detail.elt.hasAttribute("data-poll")) return;
  detail.path += "&page=" + PAGE;
  if (!offlineSince) return;
  detail.path = detail.path.replace("&wait=1", "");
  detail.timeout = BEHIND_POLL_MS;
});
// A page nobody sees asks nothing. Its held poll would keep one of the six connections a
// browser opens to a server over http://, and a seventh request (a Record on the page
// that is seen) would wait for one. Seen again, it asks at its next beat (2 s).
document.addEventListener("htmx:confirm", (event) => {
  if (document.visibilityState === "hidden" && event.detail.elt.hasAttribute("data-poll")) event.preventDefault();
});
function givePollUp() {
  const poller = $("[data-poll]");
  if (poller) htmx.trigger(poller, "htmx:abort");
  return poller;
}
// A poll held by the server may not hear the connection go: the phone's word is taken.
addEventListener("offline", () => {
  if (givePollUp()) pollFailed();
});
// Out of sight, the held poll is given up (and none is sent, above). Back on screen, the
// next, a moment later, has what changed meanwhile, on a connection of now: one held
// while a phone slept may be gone with a Wi-Fi that dropped it, and no answer would come.
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "hidden") givePollUp();
});
for (const name of ["htmx:sendError", "htmx:timeout", "htmx:responseError"]) {
  document.addEventListener(name, (event) => {
    const elt = event.detail.elt;
    if (elt.hasAttribute("data-poll")) return pollFailed();
    if (elt.id === "preview") return void (canPlayOn() ? offline.check() : (elt.textContent = words("preview_offline")));
    // Any other change (undo, bring back…): said next to it, never silently dropped.
    const form = elt.closest("form") || elt;
    let line = form.nextElementSibling;
    if (!line?.classList.contains("send-status")) {
      line = Object.assign(document.createElement("p"), {className: "send-status"});
      line.setAttribute("role", "alert");
      form.after(line);
    }
    line.textContent = words("change_failed");
  });
}
// A poll answers the page as it was when it left. Its answer is not shown when it is
// older news than the page: when its poller is no longer the page's (a newer answer, the
// phone's own Record's, put another in), or while one of the phone's own changes is on
// its way (the server may answer with that change in it before the change's own answer
// comes: the phone's own hand said as another phone's). The poller on the page then
// asks again for itself. (Heard on the element the poll's answer goes to: when another
// answer took that out meanwhile, nothing above it hears its events, and htmx would still
// put the answer's parts in by their ids.)
let changing = 0;  // the phone's own changes on their way through htmx: Undo, a correction…
const heard = new WeakSet();  // the elements polls' answers go to, each heard once
document.addEventListener("htmx:beforeRequest", (event) => {
  const {elt, requestConfig, target} = event.detail;
  if (!elt.isConnected) return event.preventDefault();  // queued by a poller since taken out
  changing += requestConfig?.verb !== "get";
  if (elt.hasAttribute("data-poll") && target && !heard.has(target)) {
    heard.add(target);
    target.addEventListener("htmx:beforeSwap", olderNews);
  }
});
function olderNews({detail}) {
  const asked = detail.requestConfig?.elt;
  if (asked?.hasAttribute?.("data-poll") && (changing || sending.size || asked !== $("[data-poll]"))) detail.shouldSwap = false;
}
document.addEventListener("htmx:afterRequest", (event) => {
  const code = event.detail.xhr?.status;
  changing -= event.detail.requestConfig?.verb !== "get";
  if (event.detail.elt.hasAttribute("data-poll") && code > 0 && code < 500) {
    offlineSince = null;
    const line = $("#connection");
    if (line) line.hidden = true;
  }
});

// Times written in UTC by the server are shown in the phone's own time zone.
// Only where the browser knows the page's language: else the server's words stay.
// Asked only where there are times (the language's data is slow to look up), with one
// formatter for them all.
function localTimes(within) {
  const times = within ? $$("time.local-time[datetime]", within) : [];
  const lang = root.lang || "en";
  if (!times.length || !window.Intl || !Intl.DateTimeFormat.supportedLocalesOf([lang]).length) return;
  const format = new Intl.DateTimeFormat(lang, {dateStyle: "short", timeStyle: "short", calendar: "gregory"});
  for (const element of times) {
    const moment = new Date(element.getAttribute("datetime"));
    if (!isNaN(moment)) element.textContent = format.format(moment);
  }
}

// The offline page tries again by itself: a connection may be back with no "online" event
// (the kitchen's Wi-Fi was up all along, the way out of it was not).
if (offlinePage()) {
  setInterval(() => fetch(root.dataset.healthz, {cache: "no-store"}).then((r) => r.ok && location.reload(), () => {}), 5000);
}

// --- the screen stays on: a scorer's phone while it enters a hand, and the table board ----
// (Wake Lock: in a secure context only. Where the board can't have it, it says so once.)
let awake = null;
async function stayAwake() {
  const wanted = document.visibilityState === "visible" && $("#hand-form[data-own], #board");
  if (!wanted) return void awake?.release().catch(() => {});
  if (awake && !awake.released) return;
  try {
    awake = await navigator.wakeLock.request("screen");
  } catch {  // none here (plain http://, an older phone), or refused
    const note = $("#stay-awake-note");
    if (note) note.hidden = false;
  }
}
for (const name of ["DOMContentLoaded", "visibilitychange", "htmx:afterSettle"]) document.addEventListener(name, stayAwake);
// The board's "Full screen", where the browser has it (not an iPhone's Safari).
document.addEventListener("DOMContentLoaded", () => {
  const button = $("#full-screen");
  if (!button || !document.fullscreenEnabled) return;
  button.hidden = false;
  button.onclick = () => document.documentElement.requestFullscreen().catch(() => {});
});

// Installable, with an offline notice instead of the browser's error page. The worker's
// address (and the health check's) come from the page: the app may be served under a prefix.
// A screen link's page names none: it keeps nothing in the browser that opens it.
if ("serviceWorker" in navigator && root.dataset.sw) addEventListener("load", () => navigator.serviceWorker.register(root.dataset.sw));
