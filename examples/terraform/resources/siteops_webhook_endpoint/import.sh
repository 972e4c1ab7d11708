# A webhook endpoint is imported by its id or its URL (which must match one endpoint only). The service never
# shows the signing secret again, so an imported endpoint has a null secret: rotate it in the console, or
# create the endpoint with Terraform, to have it in state.
terraform import siteops_webhook_endpoint.deploys we_0123456789abcdef
terraform import siteops_webhook_endpoint.deploys https://hooks.example.com/siteops
