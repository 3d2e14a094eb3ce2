// The failure surface: ExecutorError and its codes.

/**
 * The codes protocol/errors.go declares, in its order, and the one code of
 * this client's own: CONNECTION_LOST, for a socket that could not be opened
 * or closed before the answer arrived. CONNECTION_LOST never crosses the
 * wire.
 */
export const ERROR_CODES = Object.freeze([
  'PROTOCOL_MISMATCH',
  'QUEUE_OVERFLOW',
  'CONNECTION_REJECTED',
  'TIMEOUT',
  'WORKER_CRASHED',
  'PAYLOAD_TOO_LARGE',
  'MALFORMED_MESSAGE',
  'INVALID_REQUEST',
  'UNKNOWN_EXECUTION',
  'CANCELLED',
  'SHUTTING_DOWN',
  'INTERNAL',
  'SUSPENDED',
  'CONNECTION_LOST',
])

/**
 * An executor failure: a code to branch on and a message to show. Hosts
 * branch on `code`, never on the wording of `message`. `logs` holds the
 * console lines of a run whose result was the failure; `state`, the saved
 * run of a SUSPENDED result that no server took when the client tried to
 * resume it (resume it later with executor.resume).
 */
export class ExecutorError extends Error {
  /**
   * @param {string} code
   * @param {string} message
   * @param {{cause?: unknown, logs?: Array<{level: string, text: string}>}} [options]
   */
  constructor(code, message, options = {}) {
    super(message || code, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'ExecutorError'
    /** @type {string} */
    this.code = code
    if (options.logs !== undefined) {
      /** The console lines of the run that failed, when the failure came as a result. */
      this.logs = options.logs
    }
  }
}

/**
 * Returns the ExecutorError of a protocol error message's `{code, message}`.
 * @param {{code?: string, message?: string}} e
 */
export function rehydrateExecutorError(e) {
  if (e instanceof ExecutorError) return e
  const code = typeof e?.code === 'string' && e.code !== '' ? e.code : 'INTERNAL'
  const message = typeof e?.message === 'string' ? e.message : String(e)
  return new ExecutorError(code, message)
}
