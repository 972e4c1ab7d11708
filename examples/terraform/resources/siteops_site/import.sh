# A site is imported by its id, its URL, or "name:" and its exact name (which must match one site only).
terraform import siteops_site.blog site_0123456789abcdef
terraform import siteops_site.blog https://blog.example.com
terraform import siteops_site.blog "name:Company blog"
