// Native date/time pickers (docs/spec.md section 16): the person picks in their own browser's input
// of that type, and the value reaches the page's input as typed text — the keys a person
// would press in the page's own field: back to its first segment, then each segment's
// digits in the order the page's locale shows them (Chromium moves on when one is full).
// Pure: the layout comes from the page, the keys go to the input relay.
import type { PickerKind } from './messages.js'

export interface KeyStep { key?: string, char?: string }

/** How the page's browser lays the field out: the date parts in locale order and the clock. */
export interface PickerLayout {
  order: Array<'month' | 'day' | 'year'>
  hour12: boolean
}

export const DEFAULT_LAYOUT: PickerLayout = { order: ['month', 'day', 'year'], hour12: true }

function dateSegments (value: string, layout: PickerLayout): string[] {
  const [y, m, d] = value.split('-')
  const parts = { year: y.padStart(4, '0'), month: m, day: d }
  return layout.order.map((p) => parts[p])
}

function timeSegments (value: string, layout: PickerLayout): string[] {
  const [hh, mm, ss] = value.split(':')
  const h = Number(hh)
  const segs = [layout.hour12 ? String(h % 12 === 0 ? 12 : h % 12).padStart(2, '0') : hh, mm]
  if (ss !== undefined) segs.push(ss.split('.')[0])
  if (layout.hour12) segs.push(h < 12 ? 'A' : 'P')
  return segs
}

/** The segments a person types for `value`; undefined for a kind that cannot be typed (colour). */
export function pickerSegments (kind: PickerKind, value: string, layout: PickerLayout = DEFAULT_LAYOUT): string[] | undefined {
  switch (kind) {
    case 'date': return dateSegments(value, layout)
    case 'time': return timeSegments(value, layout)
    case 'datetime-local': {
      const [date, time] = value.split('T')
      return [...dateSegments(date, layout), ...timeSegments(time, layout)]
    }
    case 'month': {
      const [y, m] = value.split('-')
      return layout.order.filter((p) => p !== 'day').map((p) => p === 'year' ? y.padStart(4, '0') : m)
    }
    case 'week': {
      const [y, w] = value.split('-W')
      return [w, y.padStart(4, '0')]
    }
    default: return undefined
  }
}

export function typedPickerKeys (kind: PickerKind, value: string, layout: PickerLayout = DEFAULT_LAYOUT): KeyStep[] {
  const segments = pickerSegments(kind, value, layout)
  if (!segments) return []
  // ArrowLeft past the first segment does nothing, so one more than there are is enough.
  const back: KeyStep[] = Array.from({ length: segments.length + 1 }, () => ({ key: 'ArrowLeft' }))
  return [...back, ...segments.flatMap((s) => [...s].map((char) => ({ char })))]
}
