/**
 * Deadlines and cancellation, one way everywhere: a `Deadline` races an operation's waits
 * against its time limit and its caller's signal; `within` bounds a wait that may simply give
 * up; `abortOn` turns a server's "the client went away" event into a signal.
 */
export { Deadline, type DeadlineOptions } from './deadline.js';
export { within } from './within.js';
export { abortOn, type AbortOnOptions, type EventSource } from './abort-on.js';
