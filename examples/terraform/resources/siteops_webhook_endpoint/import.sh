# A webhook endpoint is imported by its id. The service never shows the secret again, so an imported
# endpoint has a null secret.
terraform import siteops_webhook_endpoint.deploys we_0123456789abcdef
