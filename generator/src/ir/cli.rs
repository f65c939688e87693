//! The command-line client of a document: its subcommands, their flags, the credentials'
//! variables and the operations it leaves out.

use super::*;

/// The command-line client of a document (`apigen::generate_cli`), every decision made:
/// which operations are subcommands, their names and flags, and where credentials come from.
#[derive(Debug, Clone)]
pub struct Cli {
    /// `petstore-cli`
    pub bin: String,
    /// The environment variable of the API key (`PETSTORE_API_KEY`), and of basic
    /// authentication's user name and password.
    pub key_var: String,
    pub user_var: String,
    pub password_var: String,
    /// Where the credentials the document's schemes need are read from, for the help (`The
    /// API key is read from PETSTORE_API_KEY.`); `None` when it has no scheme.
    pub credentials_help: Option<String>,
    /// One per operation the CLI can call, in document order.
    pub commands: Vec<CliCommand>,
    /// Whether some subcommand refuses to run without credentials (so `run` tracks whether
    /// any were found).
    pub checks_credentials: bool,
    /// Whether some subcommand prints its answer as a value (not bytes), so that `run` reads
    /// `--json` for it.
    pub prints_values: bool,
    /// The operations the CLI does not offer, in document order, each with the reason its
    /// long help gives.
    pub left_out: Vec<CliLeftOut>,
}

/// An operation the command-line client leaves to the client library.
#[derive(Debug, Clone)]
pub struct CliLeftOut {
    /// An index into `Api::operations`.
    pub operation: usize,
    /// Why, as the CLI's help says it (`its answer is a stream (use the client library)`).
    pub reason: String,
}

/// One subcommand: the operation it calls (an index into `Api::operations`), its name
/// (`list-pets`) and its flags.
#[derive(Debug, Clone)]
pub struct CliCommand {
    pub operation: usize,
    pub name: String,
    /// Other names the subcommand answers to: the document's `operationId` as written and in
    /// kebab case, where the command is named after a plain name a framework's pattern holds
    /// (`create-item` for `create_item_items__post`) and no other command takes them.
    pub aliases: Vec<String>,
    /// The library's function that runs the subcommand (`list_pets`): one per subcommand
    /// keeps every stack frame small (one `run` for 765 operations overflowed the main
    /// thread's stack in a debug build). Its clap `Command` is data (`commands.json`).
    pub function: String,
    pub flags: Vec<CliFlag>,
    /// A command line that runs it, for the crate's README: the required flags with the
    /// values of [`Operation::usage`], and the body (`--body '{…}'`, or the file or form its
    /// help shows).
    pub usage: String,
    /// Every alternative of the operation's security needs a credential: without one the
    /// subcommand stops before sending, with this message naming the variables of the
    /// schemes the operation uses (`PETSTORE_API_KEY is not set; set it to your API key`).
    pub missing_credentials: Option<String>,
    /// The success answer is bytes (`audio/mpeg`, `image/png`, `format: binary`): written as
    /// they are to standard output or to `--output FILE`, never printed as JSON. The media
    /// type, for the message shown instead of the bytes on a terminal.
    pub binary: Option<String>,
    /// How the request body is given, when the operation takes one.
    pub body: Option<CliBody>,
    /// A JSON (or form) body the document also offers as `multipart/form-data`: that form
    /// ([`CliBody::Multipart`]), sent through the client's multipart method
    /// ([`Operation::multipart_twin`]) when `--field` or `--file` is given; JSON otherwise.
    pub multipart: Option<CliBody>,
}

/// How a subcommand takes its request body.
#[derive(Debug, Clone)]
pub enum CliBody {
    /// JSON (or form data, given as JSON): `--body JSON|@FILE|-`, `--body-file`, standard
    /// input, and a flag per top-level property.
    Json,
    /// Bytes or text of the document's media type: `--body-file PATH|-` (and `--body TEXT`
    /// for text), with an example in the help.
    Raw {
        media: String,
        text: bool,
        example: String,
        /// The media types `--content-type` picks among (the first is sent without it), when
        /// the document lists several or a range (`*/*`); empty otherwise.
        choices: Vec<String>,
    },
    /// `multipart/form-data`: `--field NAME=VALUE` and `--file NAME=PATH`, checked against
    /// the schema's parts (none known: any name) before anything is sent.
    Multipart {
        parts: Vec<CliPart>,
        example: String,
    },
}

/// A part of a multipart body's schema (its top-level property).
#[derive(Debug, Clone)]
pub struct CliPart {
    pub name: String,
    pub required: bool,
    /// `format: binary` (or an array of such): given with `--file`.
    pub file: bool,
    /// An object, or an array of objects: its `--field` value is JSON, sent as a JSON part.
    pub json: bool,
    /// The part's media type from the document's `encoding` (else the file's extension
    /// decides).
    pub media: Option<String>,
}

/// One flag of a subcommand: its name (`pet-id`), help, the value's placeholder (`INTEGER`)
/// and what it sets.
#[derive(Debug, Clone)]
pub struct CliFlag {
    pub name: String,
    /// The arm's binding of a required parameter's value (`pet_id`; `client_2` where the
    /// parameter is spelled like one of the arm's own locals); `None` for the others.
    pub local: Option<String>,
    pub help: String,
    pub value_name: &'static str,
    pub target: FlagTarget,
}

#[derive(Debug, Clone)]
pub enum FlagTarget {
    /// A parameter (an index into the operation's `params`).
    Param(usize),
    /// A top-level property of the JSON or form body.
    Property { wire: String, ty: TypeRef },
}
