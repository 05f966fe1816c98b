"""``python -m kniffel.apps.web --port 8000``: the server without the CLI (tests and benchmarks start it
so)."""

from __future__ import annotations

import argparse

from kniffel.apps.web import serve


def main() -> None:
    parser = argparse.ArgumentParser(
        prog="python -m kniffel.apps.web", description="Serve Kniffel in the browser."
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--database-url", default=None, help="SQLAlchemy URL (default: KNIFFEL_DATABASE_URL)")
    parser.add_argument("--bot-delay", type=float, default=None, help="seconds between bot actions (0.6)")
    parser.add_argument("--log-level", default="warning")
    parser.add_argument(
        "--trusted-proxies",
        default=None,
        help="reverse proxies' addresses (default: KNIFFEL_TRUSTED_PROXIES)",
    )
    parser.add_argument(
        "--allowed-hosts", default=None, help="names the site answers to (default: KNIFFEL_ALLOWED_HOSTS)"
    )
    args = parser.parse_args()
    serve(
        args.host,
        args.port,
        args.database_url,
        bot_delay=args.bot_delay,
        log_level=args.log_level,
        trusted_proxies=args.trusted_proxies,
        allowed_hosts=args.allowed_hosts,
    )


if __name__ == "__main__":
    main()
