// The minimal app of scripts/test-languages.sh, in Go; twin.ts is the same app in TypeScript.
package main

import (
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"
	"github.com/converge-iac/cdk-converge-go/cdkconverge"
	"github.com/converge-iac/cdk-converge-go/cdkconverge/mesh"
	"github.com/converge-iac/cdk-converge-go/cdkconverge/platform"
	"github.com/converge-iac/cdk-converge-go/cdkconverge/secrets"
	"github.com/hashicorp/terraform-cdk-go/cdktf"
)

func stack(scope constructs.Construct) cdktf.TerraformStack {
	stack := cdktf.NewTerraformStack(scope, jsii.String("languages"))

	org := platform.NewOrganization(stack, jsii.String("org"), &platform.OrganizationProps{
		Name:  jsii.String("acme-lang"),
		Email: jsii.String("ops@acme.io"),
	})

	secrets.NewKvSecret(stack, jsii.String("db"), &secrets.KvSecretProps{
		Path: jsii.String(*org.Name() + "/db"),
		Data: &map[string]interface{}{
			"user":     jsii.String("app"),
			"password": cdkconverge.SecretValue_FromEnv(jsii.String("LANGUAGES_DB_PASSWORD")),
		},
	})

	mesh.NewServiceDefaults(stack, jsii.String("web-defaults"), &mesh.ServiceDefaultsProps{
		Name: jsii.String("web"), Protocol: mesh.MeshProtocol_HTTP,
	})

	mesh.NewServiceSplitter(stack, jsii.String("web-splitter"), &mesh.ServiceSplitterProps{
		Name: jsii.String("web"),
		Splits: &[]*mesh.ServiceSplit{
			{Weight: jsii.Number(90), ServiceSubset: jsii.String("v1")},
			{Weight: jsii.Number(10), ServiceSubset: jsii.String("v2")},
		},
	})
	return stack
}

func main() {
	app := cdktf.NewApp(nil)
	stack(app)
	app.Synth()
}
