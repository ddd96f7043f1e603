"""The admin app with the rate-limited log-in site (euchre_site.admin_site)."""

from django.contrib.admin.apps import AdminConfig


class EuchreAdminConfig(AdminConfig):
    default_site = "euchre_site.admin_site.RateLimitedAdminSite"
