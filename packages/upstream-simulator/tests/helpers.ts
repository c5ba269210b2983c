import type { HangTimer } from '../src/upstream_simulator.js'

/** A hang timer that fires only when the test says so; `pending` lists the delays still due. */
export function manualTimer(): { schedule: HangTimer; pending: () => number[]; fire: () => void } {
  const due = new Set<{ ms: number; callback: () => void }>()
  return {
    schedule: (callback, ms) => {
      const entry = { ms, callback }
      due.add(entry)
      return () => due.delete(entry)
    },
    pending: () => [...due].map((entry) => entry.ms),
    fire: () => {
      for (const entry of due) {
        due.delete(entry)
        entry.callback()
      }
    },
  }
}

/** Whether the promise has settled, read without waiting for it. */
export function settledFlag(promise: Promise<unknown>): () => boolean {
  let settled = false
  const settle = () => {
    settled = true
  }
  promise.then(settle, settle)
  return () => settled
}
