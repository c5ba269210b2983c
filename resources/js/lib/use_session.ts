import { useEffect, useState } from 'preact/hooks'
import { currentSession, onSessionChange } from './session'

/** The current session, re-rendering when this tab or another signs in or out. */
export function useSession() {
  const [session, setSession] = useState(currentSession)
  useEffect(() => onSessionChange(() => setSession(currentSession())), [])
  return session
}
