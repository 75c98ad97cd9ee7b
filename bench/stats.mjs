export function percentile (values, p) {
  if (values.length === 0) return NaN
  const sorted = [...values].sort((a, b) => a - b)
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[i]
}

export const round = (v, d = 1) => Math.round(v * 10 ** d) / 10 ** d

export function summary (values) {
  return { n: values.length, p50: round(percentile(values, 50)), p95: round(percentile(values, 95)), max: round(Math.max(...values)) }
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
