resource "siteops_site" "blog" {
  name = "Company blog"
  url  = "https://blog.example.com"

  # Optional: the service's current versions when omitted.
  wp_version  = "6.4"
  php_version = "8.2"
}

output "blog_status" {
  value = siteops_site.blog.status
}
