// Native date/time pickers (SPEC section 16): the person picks in their own browser's
// input of that type, and the value reaches the page's input as typed text.
import type { PickerKind } from './messages.js'

export interface KeyStep { key?: string, text?: string }

export function typedPickerKeys (_kind: PickerKind, _value: string): KeyStep[] {
  return []
}
