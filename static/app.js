// The scorekeeper's own script. Every page works without it; with it, a hand is entered
// on the phone alone (CSS shows each step) and Record never loses a hand to the network.
"use strict";
const root = document.documentElement;
const $ = (selector, within = document) => within.querySelector(selector);
const $$ = (selector, within = document) => [...within.querySelectorAll(selector)];

// Every htmx request carries the CSRF token from the page's meta tag.
const csrfToken = () => $('meta[name="csrf-token"]')?.content || "";
document.addEventListener("htmx:configRequest", (event) => {
  if (event.detail.verb !== "get") event.detail.headers["X-CSRFToken"] = csrfToken();
});

// --- words: the page carries the sentences this script says, in the page's language ---
// {number}, {game} and {time} are filled in, in the page's own digits (Persian's ۰…۹).
function words(key, values = {}) {
  const own = root.dataset.digits;
  const words = document.getElementById("phone-words")?.content;
  let text = words?.querySelector(`[data-word="${key}"]`)?.textContent || key;
  for (const [name, value] of Object.entries(values)) {
    const shown = own ? String(value).replace(/[0-9]/g, (d) => own[d]) : String(value);
    text = text.split(`{${name}}`).join(shown);
  }
  return text;
}

// --- what this phone keeps: the hand being entered, and hands not sent yet ---------------
const store = {
  get(key) { try { return JSON.parse(localStorage.getItem("scorekeeper." + key)); } catch (e) { return null; } },
  set(key, value) { try { localStorage.setItem("scorekeeper." + key, JSON.stringify(value)); } catch (e) {} },
  remove(key) { try { localStorage.removeItem("scorekeeper." + key); } catch (e) {} },
};
const outbox = () => store.get("outbox") || [];
function keepOutbox(entries) {
  if (entries.length) store.set("outbox", entries); else store.remove("outbox");
  showOutbox();
}
const forget = (entry) => keepOutbox(outbox().filter((e) => e.key !== entry.key));

// --- the hand form -----------------------------------------------------------------------
const POINTS = ["high", "low", "right", "left", "joker"];
const handForm = () => document.getElementById("hand-form");
const fieldsOf = (form) => $$("input[name]", form)
  .filter((i) => i.name !== "csrf_token" && (i.type === "radio" ? i.checked : i.value !== ""))
  .map((i) => [i.name, i.value]);
function putFields(form, fields) {
  $$("input[type=radio]", form).forEach((i) => { i.checked = false; });
  $$("input[type=number]", form).forEach((i) => { i.value = ""; });
  for (const [name, value] of fields) {
    for (const input of $$(`input[name="${name}"]:not([type=hidden])`, form)) {
      if (input.type === "radio") input.checked = input.value === value; else input.value = value;
    }
  }
}
const chosen = (form, name) => $(`input[name="${name}"]:checked`, form);
const counted = (form) => $$(".game-values input", form).some((i) => i.value !== "");
function missingPoints(form) {
  const missing = POINTS.filter((point) => !chosen(form, point));
  if (!chosen(form, "game") && !counted(form)) missing.push("game");
  return missing;
}
const ownEntry = (form) => "own" in form.dataset;  // a correction is not kept
function saveDraft(form) {
  if (ownEntry(form)) store.set("draft." + form.dataset.game, {number: form.dataset.number, fields: fieldsOf(form)});
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
    // The last call tapped stands: a bid not above an earlier one, or after a 6, goes.
    uncheck(form, "input[name=bid]");
    const bid = +input.value || 0;
    for (const other of $$(".turn .bid:checked", form)) {
      const at = +other.name.slice(5);
      if (at === +turn[1]) continue;
      if (at > +turn[1] ? bid === 6 || +other.value <= bid : bid && +other.value >= bid) other.checked = false;
    }
    if (bid === 6) for (const later of $$(`.turn-${turn[1]} ~ .turn :checked`, form)) later.checked = false;
  } else if (input.name === "trump") {
    uncheck(form, "#reopen-trump");
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
  saveDraft(form);
}, true);

// Once trump is chosen, the points, the preview and Record are brought onto the screen.
function bringRecordIntoView(form) {
  const record = $(".record", form);
  const below = record && record.getClientRects().length
    ? record.getBoundingClientRect().bottom + 8 - innerHeight : 0;
  if (below > 0) scrollBy(0, below);
}

document.addEventListener("reset", (event) => {
  const form = event.target;
  if (form.id !== "hand-form") return;
  setTimeout(() => {  // after the browser's own reset, which restores the page's choices
    putFields(form, []);
    form.classList.remove("tried");
    saveDraft(form);
    window.htmx?.trigger(form, "change");
  });
});

document.addEventListener("submit", (event) => {
  const form = event.target;
  if (form.id !== "hand-form" || !window.fetch) return;
  event.preventDefault();
  const throwIn = event.submitter?.closest(".thrown-in-step");
  if (!throwIn && (!chosen(form, "trump") || missingPoints(form).length)) {
    form.classList.add("tried");  // the missing points are marked where they are
    $(".missing", form)?.scrollIntoView({block: "nearest"});
    return;
  }
  const fields = fieldsOf(form), {game, number} = form.dataset;
  const others = outbox().filter((e) => !(e.game === game && e.number === number));
  // The same hand sent again keeps its key: the server knows it by that.
  const same = outbox().find((e) => e.game === game && e.number === number
                                     && JSON.stringify(e.fields) === JSON.stringify(fields));
  const entry = same || {key: newKey(), game, number, url: form.action, fields, gameUrl: location.pathname};
  keepOutbox([...others, entry]);
  send(entry);
});

const newKey = () => window.crypto?.randomUUID?.()
  || Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 12);

// --- sending: exactly once, whatever the network does ------------------------------------
// The entry's key comes with it each time: the server records it once and, asked again,
// answers that it was recorded. Until an answer comes, the entry stays on this phone.
const sending = new Set();
let retryTimer = null, retries = 0;

const gameId = () => document.getElementById("game")?.dataset.game;
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
  let response, text;
  try {
    response = await fetch(entry.url, {
      method: "POST", body, credentials: "same-origin", signal: AbortSignal.timeout(15000),
      headers: {"X-CSRFToken": csrfToken(), "HX-Request": "true", "HX-Target": "game"},
    });
    text = await response.text();
  } catch (e) {
    return notSent(entry, "not_sent");
  } finally {
    sending.delete(entry.key);
  }
  if (response.status >= 500 || response.status === 408) return notSent(entry, "not_sent_server");
  if (response.status === 400 && !tokenRenewed) return renewToken(entry);
  answered(entry, response, text);
}

function notSent(entry, why) {
  status(entry, false, words(why, {number: entry.number}));
  showOutbox();
  retryTimer ||= setTimeout(() => { retryTimer = null; flush(); }, Math.min(30000, 2000 * 2 ** retries++));
}

// A refused token (the session ended since the page was shown): take a fresh one, once.
async function renewToken(entry) {
  try {
    const page = await (await fetch(entry.gameUrl || "/", {credentials: "same-origin"})).text();
    const fresh = /<meta name="csrf-token" content="([^"]+)"/.exec(page);
    if (fresh) $('meta[name="csrf-token"]').content = fresh[1];
    send(entry, true);
  } catch (e) {
    notSent(entry, "not_sent");
  }
}

function answered(entry, response, text) {
  retries = 0;
  const game = document.getElementById("game");
  if (game && game.dataset.game === entry.game && window.htmx) {
    forget(entry);
    htmx.swap(game, text, {swapStyle: "outerHTML"});
    if (entry.gameUrl) history.replaceState(null, "", entry.gameUrl);
    scrollTo(0, 0);
    arrived();
  } else if (response.ok) {
    // Answered while another page is open: said there. A refusal is shown in the game.
    forget(entry);
    note(words("recorded", entry));
  } else {
    keepOutbox(outbox().map((e) => (e.key === entry.key ? {...e, refused: true} : e)));
  }
}

const flush = () => outbox().forEach((e) => { if (!e.refused || e.game === gameId()) send(e); });
addEventListener("online", () => {
  if (document.body.classList.contains("offline-page")) return location.reload();
  retries = 0;
  flush();
});

// --- the outbox on every page: what this phone still holds, with a way to drop it --------
function note(text) {
  const box = document.getElementById("outbox");
  if (!box) return;
  box.hidden = false;
  box.className = "notice";
  box.setAttribute("role", "status");
  box.textContent = text;
}
function showOutbox() {
  const box = document.getElementById("outbox");
  if (!box) return;
  const shown = outbox().filter((entry) => !formFor(entry));
  box.hidden = !shown.length;
  box.className = "alert";
  box.setAttribute("role", "alert");
  box.replaceChildren(...shown.flatMap((entry) => {
    const line = document.createElement("p"), row = document.createElement("p");
    line.textContent = words(entry.refused ? "refused" : "kept", entry);
    row.className = "row";
    if (entry.game !== gameId() && entry.gameUrl) {
      const open = Object.assign(document.createElement("a"), {
        className: "button secondary", href: entry.gameUrl, textContent: words("open_game")});
      row.append(open);
    } else {
      row.append(button(words("send_now"), () => { retries = 0; send(entry); }));
    }
    row.append(button(words("discard"), (tap) => {
      if (tap.dataset.armed) return forget(entry);  // the second tap: dropped
      tap.dataset.armed = "yes";
      tap.textContent = words("discard_confirm", entry);
    }));
    return [line, row];
  }));
}
function button(text, action) {
  const tap = Object.assign(document.createElement("button"), {type: "button", className: "secondary", textContent: text});
  tap.addEventListener("click", () => action(tap));
  return tap;
}

// --- a page as it arrives (and each fresh game block): its own entry and outbox back -----
function arrived() {
  const form = handForm();
  if (form && ownEntry(form)) {
    const key = "draft." + form.dataset.game, draft = store.get(key);
    if (draft?.number === form.dataset.number) {
      putFields(form, draft.fields);
      window.htmx?.trigger(form, "change");
    } else if (draft) {
      store.remove(key);  // for a hand recorded since
    }
  }
  for (const entry of outbox()) {
    const own = formFor(entry);
    if (own) putFields(own, entry.fields);
    if (own || entry.game === gameId()) {
      if (navigator.onLine === false) notSent(entry, "not_sent"); else send(entry);
    }
  }
  showOutbox();
  localTimes(document);
}
document.addEventListener("DOMContentLoaded", arrived);
document.addEventListener("htmx:afterSettle", (event) => {
  if (event.detail.target?.id !== "game") return localTimes(event.detail.target);
  arrived();
  // Another phone's change, said where the player is looking: on screen, above the entry.
  $("#hand-entry .notice")?.scrollIntoView({block: "nearest"});
});

// --- live pages: say so when they fall behind, and anything else not sent ----------------
let offlineSince = null;
function pollFailed() {
  const line = document.getElementById("connection");
  if (!line) return;
  if (!offlineSince) {
    offlineSince = new Date();
    const time = offlineSince.toLocaleTimeString(root.lang || "en", {hour: "2-digit", minute: "2-digit"});
    line.textContent = words("stale", {time});
  }
  line.setAttribute("role", "alert");
  line.hidden = false;
}
for (const name of ["htmx:sendError", "htmx:timeout", "htmx:responseError"]) {
  document.addEventListener(name, (event) => {
    const elt = event.detail.elt;
    if (elt.hasAttribute("data-poll")) return pollFailed();
    if (elt.id === "preview") return void (elt.textContent = words("preview_offline"));
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
document.addEventListener("htmx:afterRequest", (event) => {
  const code = event.detail.xhr?.status;
  if (event.detail.elt.hasAttribute("data-poll") && code > 0 && code < 500) {
    offlineSince = null;
    const line = document.getElementById("connection");
    if (line) line.hidden = true;
  }
});

// Times written in UTC by the server are shown in the phone's own time zone.
// Only where the browser knows the page's language: else the server's words stay.
function localTimes(within) {
  const lang = root.lang || "en";
  if (!within || !window.Intl || !Intl.DateTimeFormat.supportedLocalesOf([lang]).length) return;
  for (const element of $$("time.local-time[datetime]", within)) {
    const moment = new Date(element.getAttribute("datetime"));
    if (!isNaN(moment)) {
      element.textContent = moment.toLocaleString(lang, {dateStyle: "short", timeStyle: "short", calendar: "gregory"});
    }
  }
}

// Installable, with an offline notice instead of the browser's error page.
if ("serviceWorker" in navigator) addEventListener("load", () => navigator.serviceWorker.register("/sw.js"));
