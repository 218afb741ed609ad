//! `sbekit generate --lang rust|typescript|cpp|c|java|go|csharp|wireshark SCHEMA -o DIR`: Rust
//! codecs as a standalone crate or a module, TypeScript codecs as an npm package, C++ or C
//! codecs as a header-only library, Java codecs as a Maven module, Go codecs as a Go module, C#
//! codecs as a project, or a Wireshark Lua dissector for a framing profile.

use super::Failure;
use clap::Args;
use sbekit_codegen::{KeywordStyle, Options, RuntimeDep};
use std::path::PathBuf;
use std::process::ExitCode;

/// Examples and output shapes, shown by `sbekit generate --help`.
const AFTER_HELP: &str = "\
Languages and what is written into OUT:
  rust        a crate: Cargo.toml, src/lib.rs and, unless --runtime-path, a copy of the
              runtime in OUT/sbekit-runtime/ so the crate builds offline;
              with --module, one file OUT/<package>.rs to `mod` or `include!`
              (its crate needs the sbekit-runtime dependency)
  typescript  (or ts) an npm package: package.json, tsconfig.json and src/ (runtime,
              types, message codecs, a JSON printer); no dependencies
  cpp         (or c++) a header-only C++17 library: include/<package>/ (runtime, types,
              messages, json), CMakeLists.txt with the INTERFACE target <package>::sbe,
              README.md and examples/sbe_conformance.cpp
  java        a Maven module: pom.xml (Java 17, Agrona pinned), src/main/java/<package>/
              (flyweight codecs, dispatcher, JSON), src/test/java/<package>/SbeConformance.java
              and README.md; --java-package sets the package
  go          a Go module: go.mod (module path from --go-module), the package in
              OUT/<package>/ (standard library only) and cmd/sbe_conformance
  csharp      (or cs) a C# project: <Namespace>.csproj (netstandard2.0), src/ (flyweight
              codecs, dispatcher, JSON), build.sh (Mono's mcs), conformance/ and README.md;
              --namespace sets the namespace
  c           a header-only C11 library: include/<package>/ (runtime, types, messages,
              json, conformance), README.md and examples/sbe_conformance.c
  python      (or py) a typed module OUT/<package>.py: a TypedDict per message, group
              entry, composite and set and a Literal per enum (the dicts the sbekit
              Python package decodes and encodes), decode_<msg> / encode_<msg> helpers
  wireshark   a Lua dissector OUT/<proto>.lua for Wireshark 4.x and a README; needs
              --profile (cme-mdp3, b3-umdf, coinbase-derivatives, sofh-le, sofh,
              optiq-mdg, u16le, u32le); --udp-port / --tcp-port register it on ports
              (it also registers as a heuristic dissector checking schema id and version)

Generated Rust is laid out by prettyplease: the same on every machine, no rustfmt needed.

Examples:
  sbekit generate car.xml -o car-sbe                        # Rust crate car-sbe/
  sbekit generate --module car.xml -o src/generated        # src/generated/baseline.rs
  sbekit generate --lang ts car.xml -o car-ts               # npm package car-ts/
  sbekit generate --lang cpp car.xml -o car-cpp             # C++ library car-cpp/
  sbekit generate --lang java car.xml -o car-java --java-package com.example.car
  sbekit generate --lang go --go-module example.com/car car.xml -o car-go
  sbekit generate --lang c car.xml -o car-c                 # C library car-c/
  sbekit generate --lang csharp car.xml -o car-cs --namespace Example.Car
  sbekit generate --lang python car.xml -o typed            # typed/baseline_sbe.py
  sbekit generate --lang wireshark FixBinary.xml --profile cme-mdp3 --proto cme_mdp3 \
      --udp-port 14310 -o ws                                # ws/cme_mdp3.lua
  sbekit generate --crate-name my-codecs car.sbeir -o my-codecs
  sbekit generate --rustfmt --keywords suffix car.xml -o car-sbe";

/// Arguments of `sbekit generate`.
#[derive(Args)]
#[command(after_help = AFTER_HELP)]
pub struct GenerateArgs {
    /// Target language: `rust` (a crate, or a module with --module), `typescript` (`ts`) for
    /// an npm package, `cpp` (`c++`) for a header-only C++17 library, `c` for a header-only C11
    /// library, `java` for a Maven module, `go` for a Go module, `csharp` (`cs`) for a C#
    /// project, `python` (`py`) for a typed module of the Python package's dicts, or `wireshark`
    /// for a Lua dissector (with --profile).
    #[arg(long, default_value = "rust")]
    lang: String,
    /// The schema: SBE XML or a `.sbeir` IR file.
    schema: PathBuf,
    /// Output directory.
    #[arg(short, long)]
    out: PathBuf,
    /// Write one module file `<package>.rs` into the directory instead of a crate.
    #[arg(long)]
    module: bool,
    /// Crate name, or npm package name with `--lang typescript` (default: `<package>-sbe`, or the
    /// package if it already ends in `sbe`).
    #[arg(long)]
    crate_name: Option<String>,
    /// Depend on the runtime by path (a checkout of `crates/sbekit-runtime`) instead of the
    /// copy written into `<out>/sbekit-runtime/` by default.
    #[arg(long)]
    runtime_path: Option<PathBuf>,
    /// Schema names that are Rust keywords: `raw` identifiers (`r#type`) or a `suffix` (`type_`).
    #[arg(long, default_value = "raw", value_parser = ["raw", "suffix"])]
    keywords: String,
    /// Lay the Rust output out with the machine's rustfmt instead of prettyplease (a warning,
    /// and prettyplease's layout, if rustfmt cannot run).
    #[arg(long)]
    rustfmt: bool,
    /// Rust: also derive serde's `Serialize` and `Deserialize` for the owned values, behind
    /// the crate's `serde` feature (an optional `serde` dependency; with `--module`, the crate
    /// that includes the module declares the feature).
    #[arg(long)]
    serde: bool,
    /// The Java package of `--lang java` (default: the schema's package, made a Java name).
    #[arg(long)]
    java_package: Option<String>,
    /// The C# namespace of `--lang csharp` (default: the schema's package in upper camel case).
    #[arg(long)]
    namespace: Option<String>,
    /// With `--lang go`: the module path written to `go.mod` (default: the package name).
    #[arg(long)]
    go_module: Option<String>,
    /// `--lang wireshark`: the framing (cme-mdp3, b3-umdf, coinbase-derivatives, sofh-le, sofh,
    /// optiq-mdg, u16le, u32le).
    #[arg(long)]
    profile: Option<String>,
    /// `--lang wireshark`: the protocol name, first part of every display filter (default:
    /// the schema's package).
    #[arg(long)]
    proto: Option<String>,
    /// `--lang wireshark`: register the dissector on this UDP port (repeatable).
    #[arg(long = "udp-port")]
    udp_port: Vec<u16>,
    /// `--lang wireshark`: register the dissector on this TCP port (repeatable).
    #[arg(long = "tcp-port")]
    tcp_port: Vec<u16>,
    /// Retired: the output no longer needs rustfmt (accepted, with a note, for old scripts).
    #[arg(long, hide = true, conflicts_with = "rustfmt")]
    no_rustfmt: bool,
}

/// Runs `sbekit generate`.
pub fn run(args: GenerateArgs) -> Result<ExitCode, Failure> {
    if args.lang == "typescript" || args.lang == "ts" {
        return typescript(&args);
    }
    if args.lang == "cpp" || args.lang == "c++" {
        return cpp(&args);
    }
    if args.lang == "java" {
        return java(&args);
    }
    if args.java_package.is_some() {
        return Err(Failure::usage("--java-package goes with --lang java"));
    }
    if args.lang == "csharp" || args.lang == "cs" || args.lang == "c#" {
        return csharp(&args);
    }
    if args.namespace.is_some() {
        return Err(Failure::usage("--namespace goes with --lang csharp"));
    }
    if args.lang == "go" {
        return go(&args);
    }
    if args.lang == "c" {
        return c(&args);
    }
    if args.lang == "wireshark" {
        return wireshark(&args);
    }
    if args.lang == "python" || args.lang == "py" {
        return python(&args);
    }
    if args.profile.is_some()
        || args.proto.is_some()
        || !args.udp_port.is_empty()
        || !args.tcp_port.is_empty()
    {
        return Err(Failure::usage(
            "--profile, --proto, --udp-port and --tcp-port are for --lang wireshark",
        ));
    }
    if args.lang != "rust" {
        return Err(Failure::usage(format_args!(
            "unsupported language '{}' ('rust', 'typescript' / 'ts', 'cpp' / 'c++', 'c', 'java', 'go', 'csharp', 'python' or 'wireshark')",
            args.lang
        )));
    }
    let ir = sbekit_schema::load_ir(&args.schema)?;
    if args.no_rustfmt {
        eprintln!(
            "sbekit: note: --no-rustfmt is no longer needed (the output is laid out by prettyplease, without rustfmt)"
        );
    }
    if args.rustfmt {
        // The generator falls back to prettyplease's layout; say so rather than do it silently.
        if let Err(e) = sbekit_codegen::try_format("fn main() {}\n") {
            eprintln!("sbekit: warning: the output keeps prettyplease's layout: {e}");
        }
    }
    let opts = Options {
        rustfmt: args.rustfmt,
        serde: args.serde,
        keywords: if args.keywords == "suffix" {
            KeywordStyle::Suffix
        } else {
            KeywordStyle::Raw
        },
        ..Options::default()
    };
    let result = if args.module {
        sbekit_codegen::write_module(&ir, &args.out, &opts).map(|p| p.display().to_string())
    } else {
        let name = args
            .crate_name
            .clone()
            .unwrap_or_else(|| sbekit_codegen::crate_name(&ir));
        let dep = match &args.runtime_path {
            Some(p) => RuntimeDep::Path(p.clone()),
            None => RuntimeDep::Bundled,
        };
        sbekit_codegen::write_crate(&ir, &args.out, &name, &dep, &opts)
            .map(|()| format!("{} (crate {name})", args.out.display()))
    };
    match result {
        Ok(what) => {
            eprintln!("wrote {what}");
            Ok(ExitCode::SUCCESS)
        }
        // The schema compiled, so what is left is the generator refusing it or a write failing.
        Err(e @ sbekit_codegen::GenError::Io(..)) => Err(Failure::usage(e)),
        Err(e) => Err(Failure::invalid(e)),
    }
}

/// `--lang python`: the typed module `OUT/<package>.py` (TypedDicts of the values the
/// `sbekit` Python package decodes and encodes).
fn python(args: &GenerateArgs) -> Result<ExitCode, Failure> {
    let layout = sbekit_schema::load_layout(&args.schema)?;
    match sbekit_codegen_python::write_module(&layout, &args.out) {
        Ok(path) => {
            eprintln!("wrote {} (typed Python module)", path.display());
            Ok(ExitCode::SUCCESS)
        }
        Err(e @ sbekit_codegen_python::GenError::Io(..)) => Err(Failure::usage(e)),
        Err(e) => Err(Failure::invalid(e)),
    }
}

/// `--lang typescript`: an npm package in `args.out` (`--crate-name` names the package).
fn typescript(args: &GenerateArgs) -> Result<ExitCode, Failure> {
    let layout = sbekit_schema::load_layout(&args.schema)?;
    let opts = sbekit_codegen_ts::Options {
        package_name: args.crate_name.clone(),
    };
    match sbekit_codegen_ts::write_package(&layout, &args.out, &opts) {
        Ok(()) => {}
        Err(e @ sbekit_codegen_ts::GenError::Io(..)) => return Err(Failure::usage(e)),
        Err(e) => return Err(Failure::invalid(e)),
    }
    eprintln!("wrote {} (npm package)", args.out.display());
    Ok(ExitCode::SUCCESS)
}

/// `--lang cpp`: a header-only C++ library in `args.out` (`--crate-name` names the package
/// directory and namespace).
fn cpp(args: &GenerateArgs) -> Result<ExitCode, Failure> {
    let layout = sbekit_schema::load_layout(&args.schema)?;
    let opts = sbekit_codegen_cpp::Options {
        package: args.crate_name.clone(),
    };
    sbekit_codegen_cpp::write_package(&layout, &args.out, &opts)
        .map_err(|e| Failure::usage(format_args!("{}: {e}", args.out.display())))?;
    eprintln!("wrote {} (C++ library)", args.out.display());
    Ok(ExitCode::SUCCESS)
}

/// `--lang java`: a Maven module in `args.out` (`--java-package` sets the package).
fn java(args: &GenerateArgs) -> Result<ExitCode, Failure> {
    let layout = sbekit_schema::load_layout(&args.schema)?;
    let opts = sbekit_codegen_java::Options {
        package: args.java_package.clone(),
    };
    if let Some(p) = &opts.package {
        if !sbekit_codegen_java::valid_package(p) {
            return Err(Failure::usage(format_args!(
                "--java-package {p}: not a Java package name (dot-separated identifiers, no keywords)"
            )));
        }
    }
    sbekit_codegen_java::write_package(&layout, &args.out, &opts)
        .map_err(|e| Failure::usage(format_args!("{}: {e}", args.out.display())))?;
    eprintln!("wrote {} (Maven module)", args.out.display());
    Ok(ExitCode::SUCCESS)
}

/// `--lang csharp`: a C# project in `args.out` (`--namespace` sets the namespace).
fn csharp(args: &GenerateArgs) -> Result<ExitCode, Failure> {
    let layout = sbekit_schema::load_layout(&args.schema)?;
    let opts = sbekit_codegen_csharp::Options {
        namespace: args.namespace.clone(),
    };
    if let Some(p) = &opts.namespace {
        if !sbekit_codegen_csharp::valid_namespace(p) {
            return Err(Failure::usage(format_args!(
                "--namespace {p}: not a C# namespace for generated code (dot-separated identifiers, no keywords, no `System`)"
            )));
        }
    }
    sbekit_codegen_csharp::write_package(&layout, &args.out, &opts)
        .map_err(|e| Failure::usage(format_args!("{}: {e}", args.out.display())))?;
    eprintln!("wrote {} (C# project)", args.out.display());
    Ok(ExitCode::SUCCESS)
}

/// `--lang go`: a Go module in `args.out` (`--crate-name` names the package, `--go-module` the
/// module path).
fn go(args: &GenerateArgs) -> Result<ExitCode, Failure> {
    let layout = sbekit_schema::load_layout(&args.schema)?;
    let opts = sbekit_codegen_go::Options {
        package: args.crate_name.clone(),
        module: args.go_module.clone(),
    };
    sbekit_codegen_go::write_module(&layout, &args.out, &opts)
        .map_err(|e| Failure::usage(format_args!("{}: {e}", args.out.display())))?;
    eprintln!("wrote {} (Go module)", args.out.display());
    Ok(ExitCode::SUCCESS)
}

/// `--lang c`: a header-only C11 library in `args.out` (`--crate-name` names the identifier
/// prefix and include directory).
fn c(args: &GenerateArgs) -> Result<ExitCode, Failure> {
    let layout = sbekit_schema::load_layout(&args.schema)?;
    // The prefix must be a C identifier: `--crate-name my-codecs` gives `my_codecs`.
    let opts = sbekit_codegen_c::Options {
        package: args
            .crate_name
            .as_deref()
            .map(sbekit_codegen_c::package_prefix),
    };
    sbekit_codegen_c::write_package(&layout, &args.out, &opts)
        .map_err(|e| Failure::usage(format_args!("{}: {e}", args.out.display())))?;
    eprintln!("wrote {} (C library)", args.out.display());
    Ok(ExitCode::SUCCESS)
}

/// `--lang wireshark`: a Lua dissector and README in `args.out`.
fn wireshark(args: &GenerateArgs) -> Result<ExitCode, Failure> {
    let Some(name) = &args.profile else {
        return Err(Failure::usage(format_args!(
            "--lang wireshark needs --profile ({})",
            sbekit_codegen_wireshark::framings().join(", ")
        )));
    };
    let Some(profile) = sbekit_codegen_wireshark::framing(name) else {
        return Err(Failure::usage(format_args!(
            "unknown profile '{name}' ({})",
            sbekit_codegen_wireshark::framings().join(", ")
        )));
    };
    let layout = sbekit_schema::load_layout(&args.schema)?;
    let opts = sbekit_codegen_wireshark::Options {
        proto: args.proto.clone(),
        udp_ports: args.udp_port.clone(),
        tcp_ports: args.tcp_port.clone(),
    };
    match sbekit_codegen_wireshark::write(&layout, &profile, &args.out, &opts) {
        Ok(lua) => {
            eprintln!("wrote {} (Wireshark dissector)", lua.display());
            Ok(ExitCode::SUCCESS)
        }
        Err(e @ sbekit_codegen_wireshark::GenError::Plan(_)) => Err(Failure::invalid(e)),
        Err(e) => Err(Failure::usage(e)),
    }
}
