# Split the account's sites over 16 workspaces, as `siteops ... --shard 3/16` and the action's
# `shard: 3/16` split them over jobs: this workspace manages shard 3.
data "siteops_sites" "all" {}

locals {
  my_sites = {
    for s in data.siteops_sites.all.sites : s.id => s
    if provider::siteops::shard(s.id, 16) == 3
  }
}

output "my_site_count" {
  value = length(local.my_sites)
}
