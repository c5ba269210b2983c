import { createContext } from 'preact'
import { useContext } from 'preact/hooks'
import type { Provider } from './types'

export interface ProviderState {
  provider: Provider
  /** Reads GET /providers/id/:id again (after a change). */
  reload: () => Promise<void>
}

export const ProviderContext = createContext<ProviderState | null>(null)

export function useProvider(): ProviderState {
  const state = useContext(ProviderContext)
  if (!state) throw new Error('useProvider outside ProviderArea')
  return state
}
