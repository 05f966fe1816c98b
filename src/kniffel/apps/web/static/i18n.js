// The pages' words. They are written in English, as t("Play now") and as the text of elements marked
// data-t; the translations are the "web" gettext catalog (src/kniffel/locale/LANG/LC_MESSAGES/web.po),
// which the server hands out as /words/LANG.json. What the server says itself (refusals, hints, rule
// sets) comes in the language the page asks for; a game's box labels and sheet rows carry every language.
// A text with a count is written as nt("{n} roll left", "{n} rolls left", n): its forms and the language's
// plural rule (which form each count takes) come with the words, under PLURALS.

const PLURALS = "@plurals";

const KEY = "kniffel.lang";
const LANGUAGES = ["en", "de"];
const NAMES = { en: "English", de: "Deutsch" };
let words = {};
let plurals = { forms: {}, index: [] };

export function lang() {
  const saved = localStorage.getItem(KEY);
  if (LANGUAGES.includes(saved)) return saved;
  return (navigator.language || "en").toLowerCase().startsWith("de") ? "de" : "en";
}

// The words of the language in use; English needs none. Offline without a copy, the page stays English.
export async function loadWords() {
  const language = lang();
  words = {};
  plurals = { forms: {}, index: [] };
  document.documentElement.lang = language;
  if (language === "en") return;
  try {
    const response = await fetch(`/words/${language}.json`);
    if (response.ok) {
      words = await response.json();
      const found = words[PLURALS];
      if (found && typeof found.forms === "object" && Array.isArray(found.index)) plurals = found;
      delete words[PLURALS];
    }
  } catch {
    // no connection and no cached copy
  }
}

export async function toggleLang() {
  localStorage.setItem(KEY, lang() === "de" ? "en" : "de");
  await loadWords();
}

// The other language, named in itself, for the button that switches to it.
export function otherLanguage() {
  const other = lang() === "de" ? "en" : "de";
  return { code: other, name: NAMES[other] };
}

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (_, name) => String(params[name] ?? ""));
}

export function t(text, params = {}) {
  return fill(words[text] ?? text, params);
}

// gettext's ngettext: the form of `singular`/`plural` that the count `n` takes in the language in use
// ({n} is filled with n). The server lists the rule's choice for the counts 0-199; beyond, the last two
// digits decide, as they do in every plural rule gettext knows.
export function nt(singular, plural, n, params = {}) {
  const forms = plurals.forms[singular];
  let text = n === 1 ? singular : plural;
  if (Array.isArray(forms) && forms.length) {
    const count = Math.abs(Math.trunc(n));
    const index = plurals.index[count < 200 ? count : 100 + (count % 100)] ?? (n === 1 ? 0 : 1);
    text = forms[Math.min(index, forms.length - 1)] || text;
  }
  return fill(text, { n, ...params });
}

// A text the server sends in every language ({en: ..., de: ...}), in the language in use.
export function inLanguage(texts) {
  return texts[lang()] ?? texts.en;
}

export function boxLabel(box) {
  return lang() === "de" ? box.de : box.en;
}

// Numbers and shares as the language writes them: 247.9 and 12.5% in English, 247,9 and 12,5 % in German.
export function number(value, decimals = 1) {
  return new Intl.NumberFormat(lang(), { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(value);
}

export function percent(share, decimals = 0) {
  const format = { style: "percent", minimumFractionDigits: decimals, maximumFractionDigits: decimals };
  return new Intl.NumberFormat(lang(), format).format(share);
}

// Fill every element marked data-t (its English text, kept in the attribute) and data-t-aria (its
// English aria-label, likewise) in the language in use, and name the other language on #lang.
export function translatePage(root = document) {
  for (const el of root.querySelectorAll("[data-t]")) {
    if (!el.dataset.t) el.dataset.t = el.textContent.trim().replace(/\s+/g, " ");
    el.textContent = t(el.dataset.t);
  }
  for (const el of root.querySelectorAll("[data-t-aria]")) {
    if (!el.dataset.tAria) el.dataset.tAria = el.getAttribute("aria-label");
    el.setAttribute("aria-label", t(el.dataset.tAria));
  }
  const button = document.getElementById("lang");
  if (button) {
    const other = otherLanguage();
    button.textContent = other.name;
    button.lang = other.code;
  }
}
