# A site is imported by its id.
terraform import siteops_site.blog site_0123456789abcdef
