/**
 * Runs a commander program over the arguments after the executable, the way both of our command lines
 * want it: help is returned as text (not printed, not exiting), and a usage error becomes the caller's
 * own error type without commander's "error: " prefix.
 */
import { CommanderError, type Command } from 'commander';

export function parseCommand(
  command: Command,
  output: { readonly text: string },
  argv: readonly string[],
  usageError: (message: string) => Error,
): { readonly help: string } | undefined {
  try {
    command.parse([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed') return { help: output.text };
      throw usageError(error.message.replace(/^error: /, ''));
    }
    throw error;
  }
  return undefined;
}
