/**
 * The bearer session token from POST /auth/verify, kept in this browser
 * (localStorage) until it expires or the person signs out. Nothing else the
 * API says is kept: a secret shown once lives only in the page that got it.
 */
export interface Session {
  token: string
  walletAddress: string
  expiresAt: string
}

const KEY = 'tollbooth.session'
const listeners = new Set<() => void>()

export function currentSession(): Session | null {
  try {
    const session = JSON.parse(localStorage.getItem(KEY) ?? 'null') as Session | null
    if (!session || Date.parse(session.expiresAt) <= Date.now()) return null
    return session
  } catch {
    return null
  }
}

export function saveSession(session: Session) {
  localStorage.setItem(KEY, JSON.stringify(session))
  listeners.forEach((listener) => listener())
}

export function clearSession() {
  localStorage.removeItem(KEY)
  listeners.forEach((listener) => listener())
}

/** Called when this tab signs in or out (and when another tab does). */
export function onSessionChange(listener: () => void) {
  listeners.add(listener)
  const fromOtherTab = (event: StorageEvent) => event.key === KEY && listener()
  window.addEventListener('storage', fromOtherTab)
  return () => {
    listeners.delete(listener)
    window.removeEventListener('storage', fromOtherTab)
  }
}
