/**
 * Several async iterators as one, in arrival order; each item is tagged with its source.
 * Breaking out of the merged loop (or one source throwing) closes every source.
 */
export async function * mergeTagged<T, K> (sources: ReadonlyArray<{ key: K, stream: AsyncIterator<T> }>): AsyncGenerator<{ key: K, value: T }> {
  type Step = { i: number, r: IteratorResult<T> }
  const pending = new Map<number, Promise<Step>>()
  const pull = (i: number): void => { pending.set(i, sources[i].stream.next().then((r) => ({ i, r }))) }
  sources.forEach((_s, i) => pull(i))
  try {
    while (pending.size > 0) {
      const { i, r } = await Promise.race(pending.values())
      if (r.done === true) {
        pending.delete(i)
        continue
      }
      pull(i)
      yield { key: sources[i].key, value: r.value }
    }
  } finally {
    await Promise.allSettled(sources.map((s) => s.stream.return?.()))
  }
}
