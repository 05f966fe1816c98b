// What the pages' scripts build their parts with, so that each page makes an element the same way.

export const $ = (id) => document.getElementById(id);

// An element with the text given (a number written as it is; none for undefined or null) and its classes.
export function element(tag, text, className) {
  const el = document.createElement(tag);
  if (text !== undefined && text !== null) el.textContent = String(text);
  if (className) el.className = className;
  return el;
}
