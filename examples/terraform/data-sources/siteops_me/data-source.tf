data "siteops_me" "current" {}

output "signed_in_as" {
  value = "${data.siteops_me.current.email} (${data.siteops_me.current.role})"
}
