/**
 * Characters a name or a description shown to others must not hold: control
 * characters (C0, DEL, C1: line breaks and tabs too), format characters
 * (bidirectional overrides and isolates U+202A–202E, U+2066–2069, the marks
 * U+200E/F and U+061C, zero-width U+200B–200D, U+2060, U+FEFF), line and
 * paragraph separators, and U+FFFD (bytes that were not UTF-8). They let a
 * name read as another one, or reorder the text shown after it.
 */
const HIDDEN_OR_CONTROL = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\uFFFD]/u

export function isPlainText(text: string) {
  return !HIDDEN_OR_CONTROL.test(text)
}
