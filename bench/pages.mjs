// Pages the benchmark serves on 127.0.0.1.

/** Repaints the whole 1280×720 viewport on every animation frame; counts frames in window.rafs. */
export const ANIMATED = `<!doctype html><title>animated</title>
<body style="margin:0;overflow:hidden"><canvas id="c" width="1280" height="720"></canvas>
<script>
const c = document.getElementById('c').getContext('2d')
window.rafs = 0
function frame (t) {
  rafs++
  const h = (t / 5) % 360
  c.fillStyle = 'hsl(' + h + ',70%,50%)'
  c.fillRect(0, 0, 1280, 720)
  for (let i = 0; i < 40; i++) {
    c.fillStyle = 'hsl(' + ((h + i * 9) % 360) + ',80%,40%)'
    c.fillRect((rafs * 7 + i * 53) % 1280, (i * 37) % 720, 60, 60)
  }
  c.fillStyle = '#fff'
  c.font = '120px sans-serif'
  c.fillText(String(rafs), 420, 400)
  requestAnimationFrame(frame)
}
requestAnimationFrame(frame)
</script>`

/** Records when input arrives (wall clock, fractional ms); a press flips the whole page black/white. */
export const INPUT = `<!doctype html><title>input</title>
<body style="margin:0;background:#000">
<input id="field" style="position:fixed;left:20px;top:20px;width:300px;font-size:20px">
<script>
const now = () => performance.timeOrigin + performance.now()
window.downs = []
window.inputs = []
let dark = true
addEventListener('mousedown', (e) => {
  if (e.target.id === 'field') return
  downs.push(now())
  dark = !dark
  document.body.style.background = dark ? '#000' : '#fff'
}, true)
document.getElementById('field').addEventListener('input', () => inputs.push(now()))
</script>`
