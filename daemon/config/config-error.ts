/** A configuration problem that stops start-up; its message names the variable or file key. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}
