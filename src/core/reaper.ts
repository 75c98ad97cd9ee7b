/** Pure choice of what the idle reaper closes (docs/spec.md section 8). */
export interface ReapCandidate {
  id: string
  idleMs: number
  /** Why the tab must stay (an open handoff), or undefined when nothing protects it. */
  protectedBy?: string
}

export interface ReapPlan {
  close: ReapCandidate[]
  keep: Array<ReapCandidate & { protectedBy: string }>
}

export function planReap (tabs: ReapCandidate[], idleLimitMs: number): ReapPlan {
  const idle = tabs.filter((t) => t.idleMs > idleLimitMs)
  return {
    close: idle.filter((t) => t.protectedBy === undefined),
    keep: idle.filter((t): t is ReapCandidate & { protectedBy: string } => t.protectedBy !== undefined)
  }
}
