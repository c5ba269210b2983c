import { useEffect, useState } from 'preact/hooks'
import { api } from '../lib/api'

export type HandleCheck =
  | { state: 'idle' | 'checking' }
  | { state: 'available' }
  | { state: 'unavailable'; message: string }
  | { state: 'unknown'; message: string }

const PAUSE_MS = 300

/**
 * Asks GET /handles/:handle whether registration would take a handle, a
 * moment after the person stops typing; an answer to an older handle is
 * dropped.
 */
export function useHandleCheck(handle: string): HandleCheck {
  const [check, setCheck] = useState<HandleCheck>({ state: 'idle' })
  useEffect(() => {
    if (!handle) {
      setCheck({ state: 'idle' })
      return
    }
    let current = true
    setCheck({ state: 'checking' })
    const timer = setTimeout(async () => {
      try {
        const answer = await api<{ available: boolean; message?: string }>(
          `/handles/${encodeURIComponent(handle)}`,
          { auth: false }
        )
        if (!current) return
        setCheck(
          answer.available
            ? { state: 'available' }
            : { state: 'unavailable', message: answer.message ?? '' }
        )
      } catch (error) {
        if (current) setCheck({ state: 'unknown', message: (error as Error).message })
      }
    }, PAUSE_MS)
    return () => {
      current = false
      clearTimeout(timer)
    }
  }, [handle])
  return check
}
