# The account the provider acts in.
data "siteops_account" "current" {}

# Or another account the user belongs to.
data "siteops_account" "agency" {
  id = "acct_0123456789abcdef"
}
