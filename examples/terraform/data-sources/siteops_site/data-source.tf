# Exactly one of id, name or url.
data "siteops_site" "by_name" {
  name = "Company blog"
}

data "siteops_site" "by_url" {
  url = "https://blog.example.com"
}

output "blog_wp_version" {
  value = data.siteops_site.by_name.wp_version
}
