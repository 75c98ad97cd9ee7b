// The character a numeric character reference ("&#233;", "&#xE9;") stands for, as the HTML
// standard decodes it: zero, a surrogate or anything past U+10FFFF is U+FFFD. Raw markup from a
// page may hold any number there ("&#x110000;"), and String.fromCodePoint throws on those.
const REPLACEMENT = '\uFFFD'

export function fromCharReference (code: number): string {
  if (!Number.isInteger(code) || code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return REPLACEMENT
  return String.fromCodePoint(code)
}
