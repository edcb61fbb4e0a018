// The page and its words: what every module of the phone's script finds on the page, and
// how it says things, in the page's language and its own digits. Imports nothing.
export const root = document.documentElement;
export const $ = (selector, within = document) => within.querySelector(selector);
export const $$ = (selector, within = document) => [...within.querySelectorAll(selector)];
export const gameId = () => $("#game")?.dataset.game;

// Numbers and marks as the page writes them: in its own digits and comma (Persian's ۰…۹ and ،).
const written = JSON.parse(root.dataset.written || "{}");
export const digits = (text) => [...text].map((mark) => written[mark] ?? mark).join("");

// The page carries the sentences the script says, in the page's language: {number},
// {game} and {time} are filled in, in the page's own digits (Persian's ۰…۹).
export function words(key, values = {}) {
  const said = (id) => $(id)?.content.querySelector(`[data-word="${key}"]`)?.textContent;
  return fill(said("#phone-words") || said("#offline-words") || key, values).join("");
}
// A sentence's {part}s filled in, the one way: each value in the page's digits (or as
// typed, for a name kept as typed), a node copied; a {part} not given stays as written.
export function fill(text, values, asTyped = false) {
  return text.split(/\{(\w+)\}/).map((part, i) => {
    if (i % 2 === 0) return part;
    if (!(part in values)) return `{${part}}`;
    const value = values[part] ?? "";
    if (value instanceof Node) return value.cloneNode(true);
    return asTyped ? String(value) : digits(String(value));
  });
}
