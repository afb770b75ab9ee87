import type { Logger } from '../../core';

const nothing = (): void => undefined;

/** A logger that drops every line, for tests that do not look at logs. */
export const QUIET_LOGGER: Logger = { debug: nothing, info: nothing, warn: nothing, error: nothing };
