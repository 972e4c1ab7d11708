data "siteops_sites" "all" {}

data "siteops_sites" "down" {
  status = "down"
}

output "site_urls" {
  value = [for s in data.siteops_sites.all.sites : s.url]
}
