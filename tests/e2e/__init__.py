"""The web pages in a browser (Chromium through Playwright), against real servers; run after the others."""
