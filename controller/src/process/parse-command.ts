/**
 * Runs a commander program over the arguments after the executable, the way both of our command lines
 * want it: help is returned as text (not printed, not exiting), and a usage error becomes the caller's
 * own error type without commander's "error: " prefix.
 */
import type { Command, CommanderError } from 'commander';

export function parseCommand(
  command: Command,
  output: { readonly text: string },
  argv: readonly string[],
  usageError: (message: string) => Error,
): { readonly help: string } | undefined {
  try {
    command.parse([...argv], { from: 'user' });
  } catch (error) {
    if (isCommanderError(error)) {
      if (error.code === 'commander.helpDisplayed') return { help: output.text };
      throw usageError(error.message.replace(/^error: /, ''));
    }
    throw error;
  }
  return undefined;
}

/**
 * By its code rather than `instanceof`: the lab's package installs its own copy of commander, whose
 * errors are not instances of this package's class.
 */
function isCommanderError(error: unknown): error is CommanderError {
  const code = (error as { code?: unknown } | undefined)?.code;
  return error instanceof Error && typeof code === 'string' && code.startsWith('commander.');
}
