//! The deployment files in `deploy/`: the Kubernetes manifests parse and agree with the binary
//! (port, gRPC probes, resource limits, non-root, shutdown grace), the Dockerfile follows the
//! basics (pinned base images, non-root user, the binary's own health check), and
//! `referee health` answers as the container health check expects.

mod common;

use std::path::PathBuf;

use yaml_rust2::{Yaml, YamlLoader};

fn deploy_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../deploy")
}

fn load(name: &str) -> Yaml {
    let path = deploy_dir().join("k8s").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut docs = YamlLoader::load_from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(docs.len(), 1, "{name}: one document");
    docs.remove(0)
}

#[test]
fn deployment_probes_ports_limits_and_security() {
    let d = load("deployment.yaml");
    assert_eq!(d["kind"].as_str(), Some("Deployment"));
    let pod = &d["spec"]["template"]["spec"];
    // Longer than the server's default shutdown grace (30 s).
    assert!(pod["terminationGracePeriodSeconds"].as_i64().unwrap() > 30);
    assert_eq!(pod["securityContext"]["runAsNonRoot"].as_bool(), Some(true));
    let c = &pod["containers"][0];
    assert_eq!(c["ports"][0]["containerPort"].as_i64(), Some(50051));
    for probe in ["readinessProbe", "livenessProbe"] {
        assert_eq!(
            c[probe]["grpc"]["port"].as_i64(),
            Some(50051),
            "{probe} must be a gRPC probe on 50051"
        );
    }
    let env = c["env"].as_vec().unwrap();
    let addr = env
        .iter()
        .find(|e| e["name"].as_str() == Some("REFEREE_ADDR"))
        .expect("REFEREE_ADDR");
    assert_eq!(addr["value"].as_str(), Some("0.0.0.0:50051"));
    for kind in ["requests", "limits"] {
        for res in ["cpu", "memory"] {
            assert!(
                !c["resources"][kind][res].is_badvalue(),
                "resources.{kind}.{res} missing"
            );
        }
    }
    assert_eq!(
        c["securityContext"]["allowPrivilegeEscalation"].as_bool(),
        Some(false)
    );
    assert_eq!(
        c["securityContext"]["readOnlyRootFilesystem"].as_bool(),
        Some(true)
    );
}

#[test]
fn service_hpa_and_pdb_select_the_deployment() {
    let s = load("service.yaml");
    assert_eq!(s["spec"]["ports"][0]["port"].as_i64(), Some(50051));
    assert_eq!(
        s["spec"]["ports"][0]["appProtocol"].as_str(),
        Some("kubernetes.io/h2c")
    );
    assert_eq!(
        s["spec"]["selector"]["app.kubernetes.io/name"].as_str(),
        Some("referee")
    );
    let h = load("hpa.yaml");
    assert_eq!(h["apiVersion"].as_str(), Some("autoscaling/v2"));
    assert_eq!(
        h["spec"]["scaleTargetRef"]["name"].as_str(),
        Some("referee")
    );
    assert!(h["spec"]["minReplicas"].as_i64().unwrap() >= 2);
    let p = load("pdb.yaml");
    assert_eq!(p["kind"].as_str(), Some("PodDisruptionBudget"));
    assert_eq!(
        p["spec"]["selector"]["matchLabels"]["app.kubernetes.io/name"].as_str(),
        Some("referee")
    );
}

#[test]
fn dockerfile_basics() {
    let text = std::fs::read_to_string(deploy_dir().join("Dockerfile")).unwrap();
    let froms: Vec<&str> = text.lines().filter(|l| l.starts_with("FROM ")).collect();
    assert!(froms.len() >= 2, "multi-stage build expected");
    for from in &froms {
        let image = from.split_whitespace().nth(1).unwrap();
        let tag = image.split_once(':').map(|(_, t)| t).unwrap_or("");
        assert!(
            !tag.is_empty() && tag != "latest" && tag.chars().any(|c| c.is_ascii_digit()),
            "unpinned base image: {from}"
        );
    }
    let user = text
        .lines()
        .rfind(|l| l.starts_with("USER "))
        .expect("a USER line");
    assert!(
        !user.contains("root") && !user.trim_end().ends_with(" 0"),
        "runs as root: {user}"
    );
    assert!(
        text.contains("HEALTHCHECK") && text.contains("\"health\""),
        "HEALTHCHECK with `referee health`"
    );
    assert!(text.contains("EXPOSE 50051"));
    assert!(
        text.contains("--locked"),
        "release build from the lock file"
    );
}

#[test]
fn the_health_subcommand_reports_serving_and_fails_without_a_server() {
    let server = common::Server::start(&[]);
    let out = std::process::Command::new(common::referee_bin())
        .args(["health", "--addr", &server.addr])
        .output()
        .expect("run referee health");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "SERVING");
    drop(server);
    // Nothing listens on the discard port.
    let out = std::process::Command::new(common::referee_bin())
        .args(["health", "--addr", "127.0.0.1:9", "--timeout-ms", "500"])
        .output()
        .expect("run referee health");
    assert!(!out.status.success());
}
