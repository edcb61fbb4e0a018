"""What every page needs: settings, Flask extensions, security headers, static assets,
forms, the page's language and everything the app says in words.
"""
