/** The CLI's help texts: the main one and one per command group. */

const OPTIONS = `Options of every command:
  --config <file>   the configuration file (default: found as the server finds it)
  --help            this help; --version the version`;

export const HELP: Readonly<Record<string, string>> = {
  main: `Usage: tts-gateway <command> [options]

Commands:
  serve                 run the gateway (the HTTP server) in the foreground
  keys                  create, list and revoke an account's API keys
  accounts              create accounts, show and set their limits
  usage                 print an account's usage: by day, by model, totals

Run "tts-gateway <command> --help" for a command's options.

${OPTIONS}`,

  serve: `Usage: tts-gateway serve [--config <file>]

Runs the gateway until SIGTERM or SIGINT (then it finishes the requests in flight).
PORT and PUBLIC_BASE_URL override the configuration.

${OPTIONS}`,

  keys: `Usage: tts-gateway keys <create|list|revoke> [options]

  keys create --email <email> [--name <name>] [--password <password> | --password-stdin]
      Issues an API key (printed once), creating the account when it does not exist.
      For an existing account a given password must be its own.
  keys list --email <email>
      Lists the account's live keys: id, name, prefix, created, last used.
  keys revoke --email <email> --id <key-id>
      Revokes a key at once.

${OPTIONS}`,

  accounts: `Usage: tts-gateway accounts <create|show|set-limits> [options]

  accounts create --email <email> [--password <password> | --password-stdin]
      Creates an account and its first API key (printed once). Without a password the
      account cannot log in; its keys come from this CLI.
  accounts show --email <email>
      Shows the account and its own limits.
  accounts set-limits --email <email> [--requests-per-minute <n|default>] [--characters-per-day <n|default>]
      Sets the account's own limits; "default" returns to the configured one.

${OPTIONS}`,

  usage: `Usage: tts-gateway usage --email <email> [--from <YYYY-MM-DD>] [--to <YYYY-MM-DD>]

Prints the account's usage (requests, characters, audio seconds, cache hits, errors) by UTC
day and by model, with totals: what GET /api/v1/usage answers. --from and --to are inclusive
days; by default the last 30 days.

${OPTIONS}`,
};
