// Pointer and wheel capture (docs/spec.md section 10 "Gestures"): press/move/release as a real
// drag, moves at most one per 1/60 s (newest position wins), presses and releases never
// dropped or reordered, the release of a drag that left the picture pulled to its edge.
// Touch arrives as pointer events: one finger drags like a mouse, two fingers scroll.
import type { Point } from '../core/coords.js'
import type { MouseButton, PanelInput } from '../panel/messages.js'
import type { View } from './view.js'
import type { Gate, Pending } from './outbox.js'

const MOVE_MS = 1000 / 60
const TOUCH_HOLD_MS = 60
const DOUBLE_CLICK_MS = 500
const BUTTONS: MouseButton[] = ['left', 'middle', 'right']
/** A second tap this soon and this close zooms the view in (or back out) instead of clicking. */
const DOUBLE_TAP_MS = 350
const DOUBLE_TAP_PX = 24
const DOUBLE_TAP_ZOOM = 2.5
export const modsOf = (e: KeyboardEvent | MouseEvent): number => (e.altKey ? 1 : 0) | (e.ctrlKey ? 2 : 0) | (e.metaKey ? 4 : 0) | (e.shiftKey ? 8 : 0)

type Sent<T extends PanelInput['t']> = Extract<PanelInput, { t: T }>

export interface PointerDeps {
  view: View
  /** Sent now, or held until it can be (docs/spec.md section 17): see outbox.ts. */
  send: (msg: PanelInput | Pending) => void
  gate: () => Gate
  /** A press on the view; `allowed` is false while the person only watches. */
  onPress: (e: PointerEvent, allowed: boolean) => void
}

/**
 * A press; `at` is null when it was made before the picture's layout was known (docs/spec.md section
 * 17: held, and mapped from `pt`, the point in the view, once the layout is known).
 */
interface Press { id: number, button: MouseButton, clicks: number, at: Point | null, pt: Point, sent: boolean, timer: number, outside?: boolean }

export class PointerCapture {
  readonly view: View
  readonly send: PointerDeps['send']
  readonly gate: () => Gate
  readonly onPress: PointerDeps['onPress']
  press: Press | null
  readonly touches: Map<number, Point>
  scroll: { mid: Point, dist: number, zoomed: boolean } | null
  move: Sent<'mouse'> | null
  moveAt: number
  moveTimer: number
  wheel: Sent<'wheel'> | null
  last: { at: number, x: number, y: number, button: MouseButton | '', clicks: number }
  lastTap: { at: number, x: number, y: number }
  onZoom: () => void

  constructor ({ view, send, gate, onPress }: PointerDeps) {
    this.view = view
    this.send = send
    this.gate = gate
    this.onPress = onPress
    this.press = null
    this.touches = new Map()
    this.scroll = null
    this.move = null
    this.moveAt = 0
    this.moveTimer = 0
    this.wheel = null
    this.last = { at: 0, x: 0, y: 0, button: '', clicks: 0 }
    this.lastTap = { at: 0, x: 0, y: 0 }
    this.onZoom = () => {}
    const el = view.el
    el.addEventListener('pointerdown', (e) => this.down(e))
    el.addEventListener('pointermove', (e) => this.moved(e))
    el.addEventListener('pointerup', (e) => this.up(e))
    el.addEventListener('pointercancel', (e) => this.up(e))
    el.addEventListener('lostpointercapture', (e) => this.up(e))
    el.addEventListener('wheel', (e) => this.wheeled(e), { passive: false })
    el.addEventListener('contextmenu', (e) => e.preventDefault())
    // A tap anywhere else (a picker's Set, a dialog's OK) ends any double tap: tapping one field,
    // answering its picker and tapping the next field nearby is two taps, not a zoom.
    document.addEventListener('pointerdown', (e) => { if (!(e.target instanceof Element) || e.target.closest('#afhttp-sheet') || !el.contains(e.target)) this.lastTap.at = 0 }, true)
  }

  down (e: PointerEvent): void {
    if (e.pointerType === 'touch') {
      // Zoom and pan are the viewer's own: they work for a watcher too and never reach the page.
      this.touches.set(e.pointerId, { x: e.clientX, y: e.clientY })
      if (this.touches.size === 2) { this.startScroll(); return }
      if (this.touches.size > 2 || this.scroll) return
      const t = performance.now()
      if (t - this.lastTap.at < DOUBLE_TAP_MS && Math.hypot(e.clientX - this.lastTap.x, e.clientY - this.lastTap.y) < DOUBLE_TAP_PX) {
        e.preventDefault()
        this.lastTap.at = 0
        this.touches.delete(e.pointerId)
        const r = this.view.el.getBoundingClientRect()
        this.view.zoomAt(this.view.zoom > 1 ? 1 : DOUBLE_TAP_ZOOM, { x: e.clientX - r.left, y: e.clientY - r.top })
        this.onZoom()
        return
      }
      this.lastTap = { at: t, x: e.clientX, y: e.clientY }
    }
    if (this.gate() === 'refuse') { this.onPress(e, false); return }
    if (this.press) return
    const v = this.view.toViewport(e.clientX, e.clientY, false)
    // Outside the picture: ignored. No picture laid out yet: held and mapped once there is one.
    if (!v && this.view.layout) return
    e.preventDefault()
    this.onPress(e, true)
    this.view.el.setPointerCapture(e.pointerId)
    const button = BUTTONS[e.button] ?? 'left'
    const t = performance.now()
    const again = button === this.last.button && t - this.last.at < DOUBLE_CLICK_MS && Math.hypot(e.clientX - this.last.x, e.clientY - this.last.y) < 5
    const clicks = again ? Math.min(3, this.last.clicks + 1) : 1
    this.last = { at: t, x: e.clientX, y: e.clientY, button, clicks }
    this.press = { id: e.pointerId, button, clicks, at: v, pt: this.view.pointIn(e.clientX, e.clientY), sent: false, timer: 0 }
    // A first finger waits a moment: a second one turns the gesture into a scroll.
    if (e.pointerType === 'touch') this.press.timer = setTimeout(() => this.sendDown(), TOUCH_HOLD_MS)
    else this.sendDown(modsOf(e))
  }

  sendDown (mods = 0): void {
    const p = this.press
    if (!p || p.sent) return
    clearTimeout(p.timer)
    p.sent = true
    this.send(this.at(p, false, (v) => ({ t: 'mouse', type: 'down', x: v.x, y: v.y, button: p.button, clicks: p.clicks, mods })))
    if (this.move) this.flushMove()
  }

  moved (e: PointerEvent): void {
    if (this.touches.has(e.pointerId)) {
      this.touches.set(e.pointerId, { x: e.clientX, y: e.clientY })
      if (this.scroll) { this.scrolled(); return }
    }
    if (this.press ? e.pointerId !== this.press.id : e.pointerType !== 'mouse') return
    const gate = this.gate()
    // A hover before the panel may send is not kept (the next move or press carries the position).
    if (gate === 'refuse' || (gate === 'hold' && !this.press)) return
    const v = this.view.toViewport(e.clientX, e.clientY, this.press !== null)
    if (!v) return
    this.move = { t: 'mouse', type: 'move', x: v.x, y: v.y, button: 'none', mods: modsOf(e) }
    if (this.press && !this.press.sent) return
    const wait = this.moveAt + MOVE_MS - performance.now()
    if (wait <= 0) this.flushMove()
    else if (!this.moveTimer) this.moveTimer = setTimeout(() => this.flushMove(), wait)
  }

  flushMove (): void {
    clearTimeout(this.moveTimer)
    this.moveTimer = 0
    if (!this.move) return
    this.send(this.move)
    this.move = null
    this.moveAt = performance.now()
  }

  up (e: PointerEvent): void {
    this.touches.delete(e.pointerId)
    if (this.scroll) { if (this.touches.size === 0) this.scroll = null; return }
    const p = this.press
    if (!p || e.pointerId !== p.id) return
    this.press = null
    const v = this.view.toViewport(e.clientX, e.clientY, true)
    const mods = modsOf(e)
    if (!p.sent) { this.press = p; this.sendDown(); this.press = null }
    this.flushMove()
    const up = (w: Point): PanelInput => ({ t: 'mouse', type: 'up', x: w.x, y: w.y, button: p.button, clicks: p.clicks, mods })
    this.send(v ? up(v) : this.at(p, true, up))
  }

  /**
   * The message for a press's point: now when the press was mapped, else once the picture's
   * layout is known (a press made before the first frame was laid out).
   */
  at (p: Press, clamped: boolean, make: (v: Point) => PanelInput): PanelInput | Pending {
    if (p.at) return make(p.at)
    return () => {
      // A press that turned out to be outside the picture was never sent: nor is its release.
      if (p.outside) return null
      const v = this.view.fromView(p.pt, clamped)
      if (v === undefined) return undefined
      if (v) p.at = v
      else p.outside = true
      return v ? make(v) : null
    }
  }

  startScroll (): void {
    const p = this.press
    if (p) {
      this.press = null
      clearTimeout(p.timer)
      this.move = null
      // Already pressed in the page: let go where it was pressed.
      if (p.sent) this.send(this.at(p, true, (v) => ({ t: 'mouse', type: 'up', x: v.x, y: v.y, button: p.button, clicks: p.clicks, mods: 0 })))
    }
    this.lastTap.at = 0
    this.scroll = { mid: this.midpoint(), dist: this.distance(), zoomed: false }
  }

  distance (): number {
    const pts = [...this.touches.values()]
    return Math.hypot(pts[0].x - pts[1].x, pts[0].y - pts[1].y)
  }

  midpoint (): Point {
    const pts = [...this.touches.values()]
    return { x: (pts[0].x + pts[1].x) / 2, y: (pts[0].y + pts[1].y) / 2 }
  }

  /**
   * Two fingers: spreading or pinching zooms the view around the fingers, moving them pans the
   * zoomed view; at 1× (nothing to pan) two-finger travel scrolls the page as before.
   */
  scrolled (): void {
    if (this.touches.size < 2 || !this.scroll) return
    const mid = this.midpoint()
    const dist = this.distance()
    const r = this.view.el.getBoundingClientRect()
    const at = { x: mid.x - r.left, y: mid.y - r.top }
    const ratio = this.scroll.dist > 0 ? dist / this.scroll.dist : 1
    if (this.scroll.zoomed || Math.abs(ratio - 1) > 0.04) {
      this.scroll.zoomed = true
      // Zoom around where the fingers were, then follow where they went.
      const prev = { x: this.scroll.mid.x - r.left, y: this.scroll.mid.y - r.top }
      this.view.zoomAt(this.view.zoom * ratio, prev)
      this.view.panBy(at.x - prev.x, at.y - prev.y)
      this.scroll.dist = dist
      this.scroll.mid = mid
      this.onZoom()
      return
    }
    const prevMid = this.scroll.mid
    this.scroll.mid = mid
    if (this.view.zoom > 1) {
      this.view.panBy(mid.x - prevMid.x, mid.y - prevMid.y)
      this.onZoom()
      return
    }
    const dx = (prevMid.x - mid.x) / this.view.scale
    const dy = (prevMid.y - mid.y) / this.view.scale
    if (this.gate() !== 'refuse') this.queueWheel(mid.x, mid.y, dx, dy, 0)
  }

  wheeled (e: WheelEvent): void {
    e.preventDefault()
    if (this.gate() === 'refuse') return
    const unit = e.deltaMode === 1 ? 40 : e.deltaMode === 2 ? 600 : 1
    this.queueWheel(e.clientX, e.clientY, e.deltaX * unit, e.deltaY * unit, modsOf(e))
  }

  queueWheel (clientX: number, clientY: number, dx: number, dy: number, mods: number): void {
    const v = this.view.toViewport(clientX, clientY, true)
    if (!v) return
    if (this.wheel) {
      this.wheel.dx += dx
      this.wheel.dy += dy
      return
    }
    this.wheel = { t: 'wheel', x: v.x, y: v.y, dx, dy, mods }
    setTimeout(() => {
      const w = this.wheel
      this.wheel = null
      if (w && (w.dx || w.dy)) this.send(w)
    }, MOVE_MS)
  }
}
