// What this phone keeps: the hand being entered (its draft) and the hands not sent yet (the
// outbox), each as its form's fields. app.js writes them; offline.js plays them on.
import {$$} from "./page.js";

// Where the browser keeps nothing (a private window, a full store), kept while the page is.
const memory = new Map();
let lasting = true;
export const store = {
  get(key) {
    try { if (lasting) return JSON.parse(localStorage.getItem("scorekeeper." + key)); } catch { lasting = false; }
    return memory.get(key) ?? null;
  },
  set(key, value) {
    memory.set(key, value);
    try { localStorage.setItem("scorekeeper." + key, JSON.stringify(value)); } catch { lasting = false; }
  },
  remove(key) {
    memory.delete(key);
    try { localStorage.removeItem("scorekeeper." + key); } catch { lasting = false; }
  },
};
export const outbox = () => store.get("outbox") || [];
export const draftKey = (game) => "draft." + game;

// A game's hands kept, in order: each goes after the one before it.
const byNumber = (a, b) => a.number - b.number;
export const heldFor = (game) => outbox().filter((e) => e.game === game).sort(byNumber);

// A hand form's fields as it posts them: what is kept of a hand.
export const fieldsOf = (form) => $$("input[name]", form)
  .filter((i) => i.name !== "csrf_token" && (i.type === "radio" ? i.checked : i.value !== ""))
  .map((i) => [i.name, i.value]);
