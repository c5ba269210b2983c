import { createContext } from 'preact'
import { useContext } from 'preact/hooks'
import type { SourceChoice } from '../../../app/feeds/source_choice'

/** The feed sources providers may choose, as the server declared them (the dashboard's props). */
export const SourcesContext = createContext<SourceChoice[]>([])

export function useSources(): SourceChoice[] {
  return useContext(SourcesContext)
}

/** The declared source of a type, if the marketplace still offers it. */
export function sourceOf(sources: SourceChoice[], type: string | undefined) {
  return sources.find((source) => source.type === type)
}
